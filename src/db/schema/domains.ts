// Custom domains of websites and the old slugs that still redirect (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function domainTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /**
   * Custom domains. `hostname` is lower-case ASCII (IDNA names in punycode), unique across the platform. A `www`
   * twin added with its apex points at it through `paired_with_id` and shares its ownership token.
   */
  const websiteDomains = c.table(
    "website_domains",
    {
      id: c.text("id").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      organizationId: c.text("organization_id").notNull(),
      hostname: c.text("hostname").notNull(),
      kind: c.text("kind").$type<"apex" | "subdomain">().notNull(),
      pairedWithId: c.text("paired_with_id"),
      primary: c.boolean("is_primary").notNull(),
      status: c.text("status").$type<"pending" | "verified" | "unverified">().notNull(),
      token: c.text("token").notNull(),
      verifiedAt: c.ms("verified_at"),
      /** When a verified domain's ownership record was first found missing; served until the grace ends. */
      failingSince: c.ms("failing_since"),
      lastCheckedAt: c.ms("last_checked_at"),
      /** The records found at the last check, as the domain's `records` report them. */
      checks: c.json("checks").$type<DomainCheck[] | null>(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [
      c.uniqueIndex("website_domains_hostname_key").on(t.hostname),
      c.index("website_domains_website_idx").on(t.websiteId, t.createdAt, t.id),
      c.index("website_domains_org_idx").on(t.organizationId),
      c.index("website_domains_check_idx").on(t.lastCheckedAt),
    ],
  );

  /** A renamed website's old slug: redirects to it until `expires_at`, and no other organization may take it. */
  const websiteSlugRedirects = c.table(
    "website_slug_redirects",
    {
      slug: c.text("slug").primaryKey(),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      organizationId: c.text("organization_id").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [c.index("website_slug_redirects_website_idx").on(t.websiteId)],
  );

  return { websiteDomains, websiteSlugRedirects };
}

/** One DNS record as the last verification found it. */
export interface DomainCheck {
  type: "TXT" | "A" | "AAAA" | "CNAME";
  name: string;
  expected: string;
  found: string[];
  ok: boolean;
}
