import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  loadCollection,
  loadItem,
  prerenderValues,
  renderedItem,
  updateItem,
} from "../../src/services/cms/service.ts";
import { bulkResult, runBulk } from "./bulk.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { itemId, itemSlug, itemValues } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.bulkUpdate",
  group: cmsItemsGroup,
  title: "Update many items",
  description:
    "Updates 1 to 100 item drafts as cms_items_update does, each on its own: refused ones are reported in results[i].error. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      items: z
        .array(
          z
            .object({
              itemId: itemId(),
              slug: itemSlug.optional(),
              values: itemValues.optional(),
              expectedVersion: z.number().int().min(1).optional(),
            })
            .strict(),
        )
        .min(1)
        .max(100),
    })
    .strict(),
  output: bulkResult,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/items/bulk-update" },
  auditTarget: () => ({ type: "cms.items", id: undefined }),
  prepare: async (input, ctx) => {
    for (const spec of input.items) await prerenderValues(spec.values, ownerOf(ctx));
  },
  async handler(input, ctx) {
    return runBulk(ctx, input.items, async (spec) => {
      const record = await loadItem(ctx.stores, input.websiteId, spec.itemId);
      const collection = await loadCollection(ctx.stores, input.websiteId, record.collectionId);
      const fieldList = await ctx.stores.cms.listFields(collection.id);
      return renderedItem(
        await updateItem(ctx.stores, record, collection, fieldList, spec, ctx.now),
        fieldList,
        ownerOf(ctx.access),
      );
    });
  },
});
