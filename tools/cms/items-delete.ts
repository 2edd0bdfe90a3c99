import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadItem } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { itemId } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.delete",
  group: cmsItemsGroup,
  title: "Delete an item",
  description:
    "Deletes an item, permanently; references to it are left and skipped by pages. Live after website_source_code_head_publish.",
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
