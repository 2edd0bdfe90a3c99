import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  createItems,
  loadCollection,
  prerenderValues,
  renderedItem,
} from "../../src/services/cms/service.ts";
import { bulkResult, runBulk } from "./bulk.ts";
import { cmsItemsGroup } from "./groups.ts";
import { assertItemCapacity, ownerOf } from "./items-shared.ts";
import { collectionId, itemSlug, itemValues } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.bulkCreate",
  group: cmsItemsGroup,
  title: "Create many items",
  description:
    "Creates 1 to 100 items of a collection, each on its own: invalid ones are reported in results[i].error and not written. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      items: z
        .array(
          z
            .object({ slug: itemSlug.optional(), values: itemValues, publish: z.boolean().optional() })
            .strict(),
        )
        .min(1)
        .max(100),
    })
    .strict(),
  output: bulkResult,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/items/bulk-create" },
  auditTarget: (input) => ({ type: "cms.collections", id: input.collectionId }),
  prepare: async (input, ctx) => {
    for (const item of input.items) await prerenderValues(item.values, ownerOf(ctx));
  },
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    await assertItemCapacity(ctx.stores, collection, input.items.length);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    // Every check runs before the inserts, so a refused item writes nothing; the valid ones are written together.
    const outcomes = await createItems(ctx.stores, collection, fieldList, input.items, ctx.now);
    return runBulk(ctx, outcomes, async (outcome) => {
      if (outcome instanceof ApiError) throw outcome;
      return renderedItem(outcome, fieldList, ownerOf(ctx.access));
    });
  },
});
