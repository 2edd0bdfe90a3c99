import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { projectCollection } from "../../src/services/cms/service.ts";
import { collection } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.list",
  group: "CMS collections",
  title: "List CMS collections",
  description:
    "Lists the website's CMS collections in slug order (at most 40, so one page). The slug is the name pages use (cms.list(\"blog\")). Call cms_collections_get for a collection's fields, cms_items_list for its items.",
  input: z.object({ websiteId: fields.websiteId() }).strict(),
  output: z.object({ items: z.array(collection) }),
  capability: "cms.collections.list",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  cost: "standard",
  http: { method: "GET", path: "/cms/collections" },
  async handler(input, ctx) {
    await ctx.access.website(input.websiteId);
    const rows = await ctx.stores.cms.listCollections(input.websiteId);
    return { items: rows.map((row) => projectCollection(row)) };
  },
});
