import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadCollection, projectCollection } from "../../src/services/cms/service.ts";
import { cmsCollectionsGroup } from "./groups.ts";
import { collection, collectionId } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.get",
  group: cmsCollectionsGroup,
  title: "Get a CMS collection",
  description:
    "Returns one collection with its fields in order (key, type, rules, validValues, referenced collection): what item values must look like. Next: cms_items_create.",
  input: z.object({ websiteId: fields.websiteId(), collectionId: collectionId() }).strict(),
  output: collection,
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/cms/collections/{collectionId}" },
  async handler(input, ctx) {
    const record = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    return projectCollection(record, await ctx.stores.cms.listFields(record.id));
  },
});
