import { z } from "zod";
import { fields, nameText, proseText } from "../../src/kernel/schemas.ts";
import { FIELD_TYPES, MAX_COLLECTIONS, MAX_FIELDS } from "../../src/services/cms/fields.ts";

export const collectionId = () => z.string().min(1).describe("From cms_collections_list.");
export const itemId = () => z.string().min(1).describe("From cms_items_list.");

export const validations = z
  .object({
    minLength: z.number().int().min(0).max(1_000_000).optional(),
    maxLength: z.number().int().min(1).max(1_000_000).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    pattern: z.string().min(1).max(200).optional().describe("RE2 regex the text must match somewhere."),
  })
  .strict();

const fieldSettings = {
  name: nameText(z.string().trim().min(1).max(100)),
  helpText: proseText(z.string().max(500)).optional().describe("Guidance for editors."),
  required: z.boolean().optional().describe("Every item needs a value."),
  unique: z.boolean().optional().describe("No two items share a value."),
  defaultValue: z.unknown().optional().describe("Value of new items that omit it."),
  validations: validations.optional(),
  validValues: z
    .array(nameText(z.string().min(1).max(200)))
    .min(1)
    .max(500)
    .optional()
    .describe("option/multiOption: the allowed values."),
  integer: z.boolean().optional().describe("number: integers only."),
};

export const fieldInput = z
  .object({
    key: z
      .string()
      .regex(
        /^[a-z][a-zA-Z0-9]{0,63}$/,
        "must be camelCase letters and digits starting with a lowercase letter",
      )
      .describe("e.g. publishedOn; not id, slug, status or a timestamp name."),
    type: z
      .enum(FIELD_TYPES)
      .describe(
        "richText: Markdown; date: YYYY-MM-DD; dateTime: ISO 8601; color: #rrggbb; image(s)/file: asset id or URL; reference(s): item ids.",
      ),
    ...fieldSettings,
    referenceCollectionId: z
      .string()
      .min(1)
      .optional()
      .describe("reference/references: the target collection."),
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
    position: z.number().int().min(0).max(10_000).optional().describe("Index among the fields."),
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
  .describe("The name pages use, unique per website; from name when omitted.");

export { item, itemSlug, itemValues } from "./item-schemas.ts";
export { FIELD_TYPES, MAX_COLLECTIONS, MAX_FIELDS };
