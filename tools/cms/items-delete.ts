import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { itemId, LIVE_NOTE } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.delete",
  group: cmsItemsGroup,
  title: "Delete an item",
  description: `Deletes an item (draft and published values); cannot be undone. References to it in other items are left as they are and dropped by pages that do not find it. ${LIVE_NOTE}`,
  input: z.object({ websiteId: fields.websiteId(), itemId: itemId() }).strict(),
  output: z.object({ id: fields.id("item"), deleted: z.literal(true) }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/items/{itemId}/delete" },
  async handler(input, ctx) {
    const record = await loadItem(ctx.stores, input.websiteId, input.itemId);
    await ctx.stores.cms.deleteItem(record.id);
    return { id: record.id, deleted: true as const };
  },
});
