import { z } from "zod";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { compileQuery, runQuery } from "../../src/services/cms/query.ts";
import { loadCollection, projectItem } from "../../src/services/cms/service.ts";
import { filter, sort, status } from "./items-shared.ts";
import { collectionId, item } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.query",
  group: "CMS items",
  title: "Query a collection's items",
  description:
    "Finds items with filters (and/or of eq, ne, lt, lte, gt, gte, in, notIn, contains, startsWith, isNull), up to 3 sort keys and search (case-insensitive substring over text, longText and richText fields), with cursor pages. Filters, sort and search read draft values, or published values when status is published. An unknown field or an operator that does not fit the field's type is a validation error listing validValues. Results are identical on every database.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      status,
      filter: filter.optional(),
      sort: sort.optional(),
      search: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe("Text to find in text fields (case-insensitive)."),
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(item),
  capability: "cms.items.query",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  cost: "standard",
  http: { method: "POST", path: "/cms/collections/{collectionId}/items/query" },
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const query = compileQuery(fieldList, {
      status: input.status,
      filter: input.filter,
      sort: input.sort,
      search: input.search,
    });
    const items = await ctx.stores.cms.listItems(collection.id, { published: input.status === "published" });
    const page = runQuery(items, query, input.sort?.length ?? 0, {
      cursor: input.cursor,
      limit: input.limit,
    });
    return { items: page.items.map((row) => projectItem(row, fieldList)), nextCursor: page.nextCursor };
  },
});
