import { z } from "zod";
import { fields, nameText, proseText } from "../../src/kernel/schemas.ts";
import { FIELD_TYPES, MAX_COLLECTIONS, MAX_FIELDS } from "../../src/services/cms/fields.ts";

export const LIVE_NOTE =
  "Content reaches the live site on the next website_source_code_head_publish (no automatic republish); the editor preview shows draft values at once.";

export const collectionId = () =>
  z.string().min(1).describe("Id of the collection (from cms_collections_list).");
export const itemId = () => z.string().min(1).describe("Id of the item (from cms_items_list).");

export const validations = z
  .object({
    minLength: z.number().int().min(0).max(1_000_000).optional().describe("Text: fewest characters."),
    maxLength: z.number().int().min(1).max(1_000_000).optional().describe("Text: most characters."),
    min: z.number().optional().describe("Number: smallest value."),
    max: z.number().optional().describe("Number: largest value."),
    pattern: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        "Text: a regular expression (RE2 syntax: no backreferences or lookaround) the value must contain a match of; anchor with ^ and $ to match the whole value.",
      ),
  })
  .strict()
  .describe("Length (text), range (number) and pattern (text) rules.");

const fieldSettings = {
  name: nameText(z.string().trim().min(1).max(100)).describe("Display name, 1 to 100 characters."),
  helpText: proseText(z.string().max(500)).optional().describe("Guidance for editors."),
  required: z.boolean().optional().describe("Every item must have a non-empty value (default false)."),
  unique: z.boolean().optional().describe("No two items may have the same value (default false)."),
  defaultValue: z.unknown().optional().describe("Value given to new items that omit this field."),
  validations: validations.optional(),
  validValues: z
    .array(nameText(z.string().min(1).max(200)))
    .min(1)
    .max(500)
    .optional()
    .describe("option and multiOption: the closed set of values."),
  integer: z.boolean().optional().describe("number: integers only (default false)."),
};

export const fieldInput = z
  .object({
    key: z
      .string()
      .regex(
        /^[a-z][a-zA-Z0-9]{0,63}$/,
        "must be camelCase letters and digits starting with a lowercase letter",
      )
      .describe(
        "The value's key in item values and in sitewright:cms, e.g. title, publishedOn. Not id, slug, createdAt, updatedAt, publishedAt or status (every item has those).",
      ),
    type: z
      .enum(FIELD_TYPES)
      .describe(
        "text (one line), longText, richText (Markdown; items also carry its safe HTML), number, boolean, date (YYYY-MM-DD), dateTime (ISO 8601), option, multiOption, email, url, phone, color (#rrggbb), image / images / file (asset id or http(s) URL), videoUrl, reference / references (item ids of referenceCollectionId), slug, json. cms_fields_update can change it, converting existing values.",
      ),
    ...fieldSettings,
    referenceCollectionId: z
      .string()
      .min(1)
      .optional()
      .describe("reference and references: the referenced collection (of the same website)."),
  })
  .strict();

export const fieldUpdate = z
  .object(fieldSettings)
  .partial()
  .extend({
    type: z
      .enum(FIELD_TYPES)
      .optional()
      .describe("A new type: existing values are converted (see cms_fields_update)."),
    position: z.number().int().min(0).max(10_000).optional().describe("Order among the collection's fields."),
  });

export const field = z.object({
  id: fields.id("field"),
  collectionId: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.string(),
  helpText: z.string(),
  required: z.boolean(),
  unique: z.boolean(),
  defaultValue: z.unknown(),
  validations,
  validValues: z.array(z.string()).optional(),
  referenceCollectionId: z.string().optional(),
  integer: z.boolean().optional(),
  position: z.number().int(),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

export const collection = z.object({
  id: fields.id("collection"),
  websiteId: fields.websiteId(),
  slug: z.string().describe('The name pages use: cms.list("<slug>"), export const collection = "<slug>".'),
  name: z.string(),
  description: z.string(),
  fields: z.array(field).optional().describe("The collection's fields in order (get, create and update)."),
  createdAt: fields.timestamp(),
  updatedAt: fields.timestamp(),
});

export const collectionSlug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lowercase letters, digits and single hyphens")
  .describe("Unique per website; the name pages use. Generated from name when omitted.");

export { item, itemSlug, itemValues } from "./item-schemas.ts";
export { FIELD_TYPES, MAX_COLLECTIONS, MAX_FIELDS };
