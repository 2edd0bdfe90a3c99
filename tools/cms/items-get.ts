import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadItem, renderedItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { item, itemId } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.get",
  group: cmsItemsGroup,
  title: "Get an item",
  description:
    "Returns one item: draft values (richText also as html), published values (null if unpublished), status and version (expectedVersion of cms_items_update).",
  input: z.object({ websiteId: fields.websiteId(), itemId: itemId() }).strict(),
  output: item,
  annotations: presets.read,
  scope: { websiteId: "websiteId" },
  http: { method: "GET", path: "/cms/items/{itemId}" },
  async handler(input, ctx) {
    const record = await loadItem(ctx.stores, input.websiteId, input.itemId);
    return renderedItem(record, await ctx.stores.cms.listFields(record.collectionId), ownerOf(ctx.access));
  },
});
