import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadField } from "../../src/services/cms/service.ts";
import { cmsFieldsGroup } from "./groups.ts";

export default defineTool({
  operationId: "cms.fields.delete",
  group: cmsFieldsGroup,
  title: "Delete a field",
  description:
    "Deletes a field and its values in every item, permanently. Pages reading it get undefined after website_source_code_head_publish.",
  input: z
    .object({ websiteId: fields.websiteId(), fieldId: z.string().min(1).describe("From cms_fields_list.") })
    .strict(),
  output: z.object({ id: fields.id("field"), deleted: z.literal(true) }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/fields/{fieldId}/delete" },
  async handler(input, ctx) {
    const { field } = await loadField(ctx.stores, input.websiteId, input.fieldId);
    await ctx.stores.cms.deleteField(field.id);
    return { id: field.id, deleted: true as const };
  },
});
