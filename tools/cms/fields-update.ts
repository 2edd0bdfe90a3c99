import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadField, projectField, updateField } from "../../src/services/cms/service.ts";
import { prerenderConversion } from "../../src/services/cms/stored-html.ts";
import { cmsFieldsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { FIELD_TYPES, field, fieldUpdate } from "./schemas.ts";

export default defineTool({
  operationId: "cms.fields.update",
  group: cmsFieldsGroup,
  title: "Update a field",
  description:
    "Changes a field's name, help text, required, unique, default, validations, validValues, integer, position or type; omitted settings stay, key is fixed. Turning required on needs a value on every item, turning unique on needs distinct values (else conflict naming the item and value). A new type converts every item's draft and published values where the conversion is defined (text ↔ longText/richText/email/url/option/slug/date…, number ↔ text, date ↔ dateTime, option ↔ multiOption and image ↔ images when lists hold at most one value, reference ↔ references, anything ↔ json) and each converted value must fit the new type and rules; the first value that does not convert refuses the whole change (conflict naming the item and the value), unless force: true clears such values. A pair without a conversion is a validation error listing the types this field can change to. All or nothing. Other tightened rules (validations, validValues) are not re-checked: they apply on each item's next edit or publish. Converted items reach the live site on the next website_source_code_head_publish.",
  input: fieldUpdate
    .extend({
      websiteId: fields.websiteId(),
      fieldId: z.string().min(1).describe("Id of the field."),
      type: z
        .enum(FIELD_TYPES)
        .optional()
        .describe(
          "New type; existing values are converted (see the description and docs/cms.md for the conversions). Settings of the old type that do not apply to the new one (validations, validValues, integer) are dropped; pass validValues when changing to option or multiOption.",
        ),
      force: z
        .boolean()
        .optional()
        .describe(
          "With a new type: clear values that do not convert instead of refusing (default false). A required field's draft values are never cleared.",
        ),
    })
    .strict(),
  output: field.extend({
    conversion: z
      .object({
        itemsUpdated: z
          .number()
          .int()
          .describe("Items whose stored values changed (each gets a new version)."),
        valuesCleared: z.number().int().describe("Values cleared because they did not convert (force)."),
      })
      .optional()
      .describe("Present when the type changed."),
  }),
  annotations: presets.overwrite,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/cms/fields/{fieldId}" },
  // A field becoming richText: its texts render off the main thread before the change's unit of work.
  prepare: async (input, ctx) => {
    if (input.type === "richText") {
      await prerenderConversion(ctx.read, input.websiteId, input.fieldId, ownerOf(ctx));
    }
  },
  async handler(input, ctx) {
    const { field: current } = await loadField(ctx.stores, input.websiteId, input.fieldId);
    const result = await updateField(ctx.stores, input.websiteId, current, input, ctx.now);
    return {
      ...projectField(result.field),
      ...(result.field.type !== current.type
        ? { conversion: { itemsUpdated: result.itemsUpdated, valuesCleared: result.valuesCleared } }
        : {}),
    };
  },
});
