import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { reorderItems } from "../../src/services/cms/organize.ts";
import { loadCollection } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { collectionId, itemId } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.reorder",
  group: cmsItemsGroup,
  title: "Reorder items (manual order)",
  description:
    "Sets the manual order of a collection's items. The items of itemIds (1 to 100 of this collection, no repeats) move, in the order given, as one consecutive block: just before the item `before`, just after the item `after`, or to the start (at: 'start', the default) or end (at: 'end') of the collection; give at most one of before, after, at. Every other item keeps its relative order. To move one item: itemIds: [id] with before or after. To set the whole order of a collection of up to 100 items: pass all its ids in order. New items go last. The order is each item's `position` (sort by the key position in cms_items_query); sitewright:cms lists items in this order. It does not change item versions or updatedAt, and reaches the live site on the next website_source_code_head_publish. Returns the moved items' new positions.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      itemIds: z
        .array(z.string().min(1))
        .min(1)
        .max(100)
        .describe("Items of this collection to move, in their new order (1 to 100, no repeats)."),
      before: itemId().optional().describe("Place the block just before this item (not one of itemIds)."),
      after: itemId().optional().describe("Place the block just after this item (not one of itemIds)."),
      at: z
        .enum(["start", "end"])
        .optional()
        .describe("Place the block at the start or end of the collection (default start)."),
    })
    .strict(),
  output: z.object({
    collectionId: z.string(),
    items: z
      .array(z.object({ id: z.string(), slug: z.string(), position: z.number().int() }))
      .describe("The moved items in their new order, with their new positions."),
  }),
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/items/reorder" },
  auditTarget: (input) => ({ type: "cms.collections", id: input.collectionId }),
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    return { collectionId: collection.id, items: await reorderItems(ctx.stores, collection, input) };
  },
});
