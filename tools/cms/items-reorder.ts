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
    "Moves itemIds, in order, as one block before or after an item, or to the start or end; others keep their order. Sets position (a sort key of cms_items_query; pages list in it). Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      itemIds: z.array(z.string().min(1)).min(1).max(100).describe("Items to move, in their new order."),
      before: itemId().optional().describe("Just before this item."),
      after: itemId().optional().describe("Just after this item."),
      at: z.enum(["start", "end"]).optional().describe("At the start (default) or end."),
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
