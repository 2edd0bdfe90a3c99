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
    "Changes a field's settings, position or type (key fixed, omitted settings stay), all or nothing. A new type converts every value; one that does not convert is a conflict unless force clears it. Tightened rules apply on next edit. Live after website_source_code_head_publish.",
  input: fieldUpdate
    .extend({
      websiteId: fields.websiteId(),
      fieldId: z.string().min(1).describe("From cms_fields_list."),
      type: z
        .enum(FIELD_TYPES)
        .optional()
        .describe(
          "Converts existing values; settings the new type lacks are dropped (give validValues for option types).",
        ),
      force: z
        .boolean()
        .optional()
        .describe("With type: clear values that do not convert (never a required field's drafts)."),
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
