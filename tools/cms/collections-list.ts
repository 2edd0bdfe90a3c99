import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectCollection } from "../../src/services/cms/service.ts";
import { cmsCollectionsGroup } from "./groups.ts";
import { collection } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.list",
  group: cmsCollectionsGroup,
  title: "List CMS collections",
  description:
    'Lists the website\'s collections (at most 40) by slug, the name pages read (cms.list("blog")). Next: cms_collections_get, cms_items_list.',
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ items: z.array(collection) }),
  access: "content_editor",
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/cms/collections" },
  async handler(input, ctx) {
    await ctx.access.website(input.websiteId);
    const rows = await ctx.stores.cms.listCollections(input.websiteId);
    return { items: rows.map((row) => projectCollection(row)) };
  },
});
