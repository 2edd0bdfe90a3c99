// Item shapes shared by the CMS item tools (re-exported by ./schemas.ts).
import { z } from "zod";
import { fields } from "../../src/kernel/schemas.ts";

export const itemValues = z.record(z.string(), z.unknown()).describe("Field key → value.");

export const item = z.object({
  id: fields.id("item"),
  collectionId: z.string(),
  websiteId: z.string(),
  slug: z.string().describe("Unique per collection; the item's page is at /<route>/<slug>/."),
  status: z
    .enum(["draft", "published"])
    .describe("published: it has published values (shown on the live site after the next publish)."),
  values: z.record(z.string(), z.unknown()).describe("Draft values (what edits change)."),
  html: z.record(z.string(), z.string()).describe("richText draft values rendered as safe HTML, by key."),
  publishedValues: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe("Values of the last setPublished; null while unpublished."),
  hasUnpublishedChanges: z.boolean(),
  archived: z
    .boolean()
    .describe("Archived items stay in the CMS but are left out of the site (cms_items_archive)."),
  position: z
    .number()
    .int()
    .describe("Manual order key (cms_items_reorder); only its order matters. New items go last."),
  version: z.number().int().describe("Pass as expectedVersion to update only if nobody changed it since."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
  publishedAt: fields.timestamp().nullable(),
});

export const itemSlug = z
  .string()
  .min(1)
  .max(100)
  .describe("Unique per collection; from name or title when omitted.");
