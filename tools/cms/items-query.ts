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
    "Finds a collection's items: filter, up to 3 sort keys, full-text search, cursor pages; include adds referenced items. Reads draft values (published ones with status published). eq/in/sort are case-sensitive, contains/startsWith not. One item: cms_items_get.",
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
        .describe("Words (prefixes, any case) all found in text fields; best first without sort."),
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
    // The fields are read alongside the collection (on PostgreSQL, two pooled connections: one round trip of
    // waiting, not two); they are used only once the collection is found in the website.
    const [collection, fieldList] = await Promise.all([
      loadCollection(ctx.stores, input.websiteId, input.collectionId),
      ctx.stores.cms.listFields(input.collectionId),
    ]);
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
