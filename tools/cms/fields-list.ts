import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadCollection, projectField } from "../../src/services/cms/service.ts";
import { cmsFieldsGroup } from "./groups.ts";
import { collectionId, field } from "./schemas.ts";

export default defineTool({
  operationId: "cms.fields.list",
  group: cmsFieldsGroup,
  title: "List a collection's fields",
  description:
    "Lists a collection's fields in order (at most 60) with type, rules and settings. Change one with cms_fields_update.",
  input: z.object({ websiteId: fields.websiteId(), collectionId: collectionId() }).strict(),
  output: z.object({ items: z.array(field) }),
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/cms/collections/{collectionId}/fields" },
  async handler(input, ctx) {
    const record = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    return { items: (await ctx.stores.cms.listFields(record.id)).map(projectField) };
  },
});
