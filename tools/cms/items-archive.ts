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
    'Archives (archived: true) or unarchives (archived: false) 1 to 100 items of the website. An archived item keeps its draft values, published values and status, and cms_items_get still returns it (archived: true); cms_items_list and cms_items_query leave it out unless asked with archived: "include" or "only"; sitewright:cms leaves it out, so it has no [slug] page and is not listed: a published item disappears from the live site on the next website_source_code_head_publish (and from the editor preview at once). Unarchiving brings it back the same way (a published item reappears on the next publish). Each item is applied on its own: unknown ids are reported as not_found in results[i].error and the others are written. Already (un)archived items are left unchanged.',
  input: z
    .object({
      websiteId: fields.websiteId(),
      itemIds: z
        .array(z.string().min(1))
        .min(1)
        .max(100)
        .describe("Items to change (any collections of the website), 1 to 100, no repeats."),
      archived: z.boolean().describe("true archives the items, false unarchives them."),
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
