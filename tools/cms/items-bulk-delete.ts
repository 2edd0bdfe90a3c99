import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadItem } from "../../src/services/cms/service.ts";
import { bulkError, runBulk } from "./bulk.ts";
import { cmsItemsGroup } from "./groups.ts";

export default defineTool({
  operationId: "cms.items.bulkDelete",
  group: cmsItemsGroup,
  title: "Delete many items",
  description:
    "Deletes 1 to 100 items, permanently; unknown ids are reported as not_found in results. Live after website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      itemIds: z.array(z.string().min(1)).min(1).max(100),
    })
    .strict(),
  output: z.object({
    results: z.array(
      z.object({
        index: z.number().int(),
        id: z.string(),
        ok: z.boolean(),
        error: bulkError.optional(),
      }),
    ),
    succeeded: z.number().int(),
    failed: z.number().int(),
  }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/items/bulk-delete" },
  auditTarget: () => ({ type: "cms.items", id: undefined }),
  async handler(input, ctx) {
    const outcome = await runBulk(ctx, input.itemIds, async (id) => {
      await ctx.stores.cms.deleteItem((await loadItem(ctx.stores, input.websiteId, id)).id);
    });
    const results = outcome.results.map(({ item: _, ...result }) => ({
      ...result,
      id: input.itemIds[result.index]!,
    }));
    return { ...outcome, results };
  },
});
