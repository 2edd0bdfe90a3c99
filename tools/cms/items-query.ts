import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, listOf } from "../../src/kernel/schemas.ts";
import { compileQuery } from "../../src/services/cms/query.ts";
import { fieldsByCollection, includedItems, runQuery } from "../../src/services/cms/query-run.ts";
import { loadCollection, renderedItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { archived, filter, include, sort, status } from "./query-schemas.ts";
import { collectionId, item } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.query",
  group: cmsItemsGroup,
  title: "Query a collection's items",
  description:
    "Finds items with filters (and/or of eq, ne, lt, lte, gt, gte, in, notIn, contains, startsWith, isNull), up to 3 sort keys, full-text search over text, longText and richText fields (results by relevance unless sort is given), and cursor pages; include returns the items that reference fields point to. Filters, sort and search read draft values, or published values when status is published; archived items are left out unless archived says otherwise. eq/in and sort are exact and case-sensitive (code point order); contains/startsWith ignore case. An unknown field or an operator that does not fit the field's type is a validation error listing validValues. Results are identical on every database.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      status,
      archived,
      filter: filter.optional(),
      sort: sort.optional(),
      search: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe(
          "Words to find in text, longText and richText fields (case and accents ignored; each word matches words starting with it; every word must match). Without sort, the best matches come first.",
        ),
      include: include.optional(),
      cursor: fields.cursor(),
      limit: fields.limit(),
    })
    .strict(),
  output: listOf(item).extend({
    included: z
      .record(z.string(), item)
      .optional()
      .describe("With include: the referenced items, by id (each once, however many items point to it)."),
  }),
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/items/query" },
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const query = compileQuery(collection.id, fieldList, input);
    const page = await runQuery(ctx.stores, query, { cursor: input.cursor, limit: input.limit });
    const items = await Promise.all(
      page.items.map((row) => renderedItem(row, fieldList, ownerOf(ctx.access))),
    );
    if (!input.include) return { items, nextCursor: page.nextCursor };
    const found = await includedItems(
      ctx.stores,
      collection,
      fieldList,
      page.items,
      input.include,
      input.status,
    );
    const fieldsOf = await fieldsByCollection(ctx.stores, found.values());
    const included = Object.fromEntries(
      await Promise.all(
        [...found].map(async ([id, row]) => [
          id,
          await renderedItem(row, fieldsOf.get(row.collectionId) ?? [], ownerOf(ctx.access)),
        ]),
      ),
    );
    return { items, nextCursor: page.nextCursor, included };
  },
});
