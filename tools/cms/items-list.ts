import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { compileQuery, runQuery } from "../../src/services/cms/query.ts";
import { loadCollection, projectItem } from "../../src/services/cms/service.ts";
import { status } from "./items-shared.ts";
import { collectionId, item } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.list",
  group: "CMS items",
  title: "List a collection's items",
  description:
    "Lists a collection's items in creation order, with draft values (values), published values and status. status narrows to draft or published items. For filters, sort and search use cms_items_query.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      status,
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(item),
  capability: "cms.items.list",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  cost: "standard",
  http: { method: "GET", path: "/cms/collections/{collectionId}/items" },
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const query = compileQuery(fieldList, { status: input.status });
    const items = await ctx.stores.cms.listItems(collection.id, { published: input.status === "published" });
    const page = runQuery(items, query, 0, { cursor: input.cursor, limit: input.limit });
    return { items: page.items.map((row) => projectItem(row, fieldList)), nextCursor: page.nextCursor };
  },
});
