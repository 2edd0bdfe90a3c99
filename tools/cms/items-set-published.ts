import { z } from "zod";
import type { CmsFieldRecord } from "../../src/db/stores/cms.ts";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadCollection, loadItem, renderedItem, setItemPublished } from "../../src/services/cms/service.ts";
import { cmsItemsGroup } from "./groups.ts";
import { ownerOf } from "./items-shared.ts";
import { item } from "./schemas.ts";

export default defineTool({
  operationId: "cms.items.setPublished",
  group: cmsItemsGroup,
  title: "Publish or unpublish items",
  description:
    "Publishes (copies the re-validated draft values) or unpublishes 1 to 100 items, all or nothing. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      itemIds: z.array(z.string().min(1)).min(1).max(100).describe("Items of any collection of the website."),
      published: z.boolean().describe("false unpublishes."),
    })
    .strict(),
  output: z.object({ items: z.array(item) }),
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/items/set-published" },
  auditTarget: (input) => ({
    type: "cms.items",
    id: input.itemIds.length === 1 ? input.itemIds[0] : undefined,
  }),
  async handler(input, ctx) {
    if (new Set(input.itemIds).size !== input.itemIds.length) {
      throw new ApiError("validation", "itemIds: must not repeat an id.");
    }
    const fieldsOf = new Map<string, CmsFieldRecord[]>();
    const out = [];
    for (const id of input.itemIds) {
      const record = await loadItem(ctx.stores, input.websiteId, id);
      const collection = await loadCollection(ctx.stores, input.websiteId, record.collectionId);
      let fieldList = fieldsOf.get(collection.id);
      if (!fieldList) {
        fieldList = await ctx.stores.cms.listFields(collection.id);
        fieldsOf.set(collection.id, fieldList);
      }
      const updated = await setItemPublished(
        ctx.stores,
        record,
        collection,
        fieldList,
        input.published,
        ctx.now,
      );
      out.push(await renderedItem(updated, fieldList, ownerOf(ctx.access)));
    }
    return { items: out };
  },
});
