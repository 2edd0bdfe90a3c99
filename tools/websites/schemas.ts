import { z } from "zod";
import { fields, nameText } from "../../src/kernel/schemas.ts";

export const website = z.object({
  id: fields.id("website"),
  organizationId: fields.organizationId(),
  name: z.string(),
  slug: z.string().describe("Unique subdomain label; the live site is served at url."),
  url: z.string().describe("Where the published website is served."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

export const websiteName = nameText(z.string().trim().min(1).max(200));
export const websiteSlug = z
  .string()
  .min(3)
  .max(63)
  .describe("Subdomain label, unique on the platform; from the name when omitted.");
