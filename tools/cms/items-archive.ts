import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { setItemArchived } from "../../src/services/cms/organize.ts";
import { loadItem, renderedItem } from "../../src/services/cms/service.ts";
import { bulkResult, runBulk } from "./bulk.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";

export default defineTool({
  operationId: "cms.items.archive",
  group: cmsItemsGroup,
  title: "Archive or unarchive items",
  description:
    "Archives or unarchives 1 to 100 items, each on its own. Archived items keep their values but leave cms_items_list, cms_items_query (unless archived asks) and the pages of the next website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      itemIds: z.array(z.string().min(1)).min(1).max(100).describe("Items of any collection of the website."),
      archived: z.boolean().describe("false unarchives."),
    })
    .strict(),
  output: bulkResult,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/items/archive" },
  auditTarget: (input) => ({
    type: "cms.items",
    id: input.itemIds.length === 1 ? input.itemIds[0] : undefined,
  }),
  async handler(input, ctx) {
    if (new Set(input.itemIds).size !== input.itemIds.length) {
      throw new ApiError("validation", "itemIds: must not repeat an id.");
    }
    return runBulk(ctx, input.itemIds, async (id) => {
      const record = await loadItem(ctx.stores, input.websiteId, id);
      const updated = await setItemArchived(ctx.stores, record, input.archived, ctx.now);
      return renderedItem(
        updated,
        await ctx.stores.cms.listFields(updated.collectionId),
        ownerOf(ctx.access),
      );
    });
  },
});
