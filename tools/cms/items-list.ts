import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { compileQuery } from "../../src/services/cms/query.ts";
import { runQuery } from "../../src/services/cms/query-run.ts";
import { loadCollection, renderedItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { archived, status } from "./query-schemas.ts";
import { collectionId, item } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.list",
  group: cmsItemsGroup,
  title: "List a collection's items",
  description:
    "Lists a collection's items in creation order with draft values, published values and status (archived ones left out by default). Filters, sort, search: cms_items_query.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      status,
      archived,
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(item),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/cms/collections/{collectionId}/items" },
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const query = compileQuery(collection.id, fieldList, { status: input.status, archived: input.archived });
    const page = await runQuery(ctx.stores, query, { cursor: input.cursor, limit: input.limit });
    const items = await Promise.all(
      page.items.map((row) => renderedItem(row, fieldList, ownerOf(ctx.access))),
    );
    return { items, nextCursor: page.nextCursor };
  },
});
