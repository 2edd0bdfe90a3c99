import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const domainId = () => fields.id("domain").describe("From domains_list.");

const record = z.object({
  purpose: z
    .enum(["ownership", "routing"])
    .describe(
      "ownership: the TXT record that proves the domain is yours; routing: where the name points (this platform).",
    ),
  type: z.enum(["TXT", "A", "AAAA", "CNAME"]),
  name: z.string().describe("The full record name to create at the DNS provider."),
  value: z.string().describe("The exact value the record must hold."),
  status: z
    .enum(["unchecked", "found", "missing", "mismatch"])
    .describe(
      "At the last verification: found as expected, missing, found with other values (see found), or not checked yet.",
    ),
  found: z.array(z.string()).describe("The values the last verification found for this name and type."),
});

/** The TLS certificate the proxy holds for a domain (part of every domain object). */
const certificate = z
  .object({
    state: z
      .enum(["issued", "expired", "pending", "unknown"])
      .describe(
        "issued: Caddy holds a valid one; expired: renewed at the next HTTPS request; pending: none yet (obtained on demand once served); unknown: not readable (see message).",
      ),
    issuer: z.string().nullable(),
    notAfter: fields.timestamp().nullable(),
    message: z.string().describe("Why, in a sentence."),
  })
  .describe("The TLS certificate the proxy's storage holds for this name.");

export const domain = z.object({
  id: domainId(),
  websiteId: fields.websiteId(),
  hostname: z.string().describe("The domain in lower-case ASCII (internationalized names in punycode)."),
  unicodeHostname: z.string().describe("The same name in Unicode."),
  kind: z
    .enum(["apex", "subdomain", "www"])
    .describe(
      "apex: a registrable domain (example.com); subdomain: a name under one; www: the twin added with its apex, verified with it, always redirecting.",
    ),
  pairedWithId: z.string().nullable().describe("For a www twin, the id of its apex domain; else null."),
  primary: z
    .boolean()
    .describe("Whether every other host of the website (its platform subdomain included) redirects here."),
  status: z
    .enum(["pending", "verified", "unverified"])
    .describe(
      "pending: ownership not proven yet; verified: proven; unverified: the ownership record disappeared after it was verified (served until servedUntil).",
    ),
  served: z.boolean().describe("Whether the live site answers on this name now."),
  servedUntil: fields
    .timestamp()
    .nullable()
    .describe("For an unverified domain still served: when it stops unless verified again."),
  url: z.string().describe("The site's address on this domain."),
  records: z.array(record).describe("The DNS records to create, each with what the last verification found."),
  verifiedAt: fields.timestamp().nullable(),
  lastCheckedAt: fields.timestamp().nullable(),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
  certificate,
});
