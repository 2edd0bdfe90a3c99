import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { createItem, loadCollection, prerenderValues, renderedItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { assertItemCapacity, ownerOf } from "./items-shared.ts";
import { collectionId, item, itemSlug, itemValues } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.create",
  group: cmsItemsGroup,
  title: "Create an item",
  description:
    "Creates a draft item; values are checked against the fields (errors name values.<key>), missing ones take defaults. publish true publishes it. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      slug: itemSlug.optional(),
      values: itemValues,
      publish: z.boolean().optional().describe("Also publish it."),
    })
    .strict(),
  output: item,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/items" },
  prepare: (input, ctx) => prerenderValues(input.values, ownerOf(ctx)),
  async handler(input, ctx) {
    const collection = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    await assertItemCapacity(ctx.stores, collection, 1);
    const fieldList = await ctx.stores.cms.listFields(collection.id);
    const record = await createItem(ctx.stores, collection, fieldList, input, ctx.now);
    return renderedItem(record, fieldList, ownerOf(ctx.access));
  },
});
