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
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { item, itemId, itemSlug, itemValues } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.update",
  group: cmsItemsGroup,
  title: "Update an item",
  description:
    "Changes an item's draft: values sets the given keys (null clears), slug renames; with expectedVersion a stale write is a conflict. Then cms_items_set_published and website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      itemId: itemId(),
      slug: itemSlug.optional(),
      values: itemValues.optional(),
      expectedVersion: z.number().int().min(1).optional().describe("The version you read (else conflict)."),
    })
    .strict(),
  output: item,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/cms/items/{itemId}" },
  prepare: (input, ctx) => prerenderValues(input.values, ownerOf(ctx)),
  async handler(input, ctx) {
    const record = await loadItem(ctx.stores, input.websiteId, input.itemId);
    const collection = await loadCollection(ctx.stores, input.websiteId, record.collectionId);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const updated = await updateItem(ctx.stores, record, collection, fieldList, input, ctx.now);
    return renderedItem(updated, fieldList, ownerOf(ctx.access));
  },
});
