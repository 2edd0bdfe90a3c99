import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  assertFieldCapacity,
  insertField,
  loadCollection,
  projectField,
} from "../../src/services/cms/service.ts";
import { cmsFieldsGroup } from "./groups.ts";
import { collectionId, field, fieldInput, MAX_FIELDS } from "./schemas.ts";

export default defineTool({
  operationId: "cms.fields.create",
  group: cmsFieldsGroup,
  title: "Add a field to a collection",
  description: `Adds a field after the others (key unique, at most ${MAX_FIELDS}). Existing items are unchanged; a new required field applies on their next edit. Set values with cms_items_update.`,
  input: fieldInput.extend({ websiteId: fields.websiteId(), collectionId: collectionId() }).strict(),
  output: field,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/fields" },
  async handler(input, ctx) {
    const { websiteId, collectionId: id, ...spec } = input;
    const record = await loadCollection(ctx.stores, websiteId, id);
    await assertFieldCapacity(ctx.stores, record.id, 1);
    const existing = await ctx.stores.cms.listFields(record.id);
    const position = existing.reduce((max, f) => Math.max(max, f.position + 1), 0);
    return projectField(await insertField(ctx.stores, websiteId, record.id, spec, position, ctx.now));
  },
});
