import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { fields } from "../../src/kernel/schemas.ts";
import { loadCollection, referencingFields } from "../../src/services/cms/service.ts";
import { cmsCollectionsGroup } from "./groups.ts";
import { collectionId } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.delete",
  group: cmsCollectionsGroup,
  title: "Delete a CMS collection",
  description:
    "Deletes a collection with its fields and items, permanently. Conflict while other collections reference it, unless force (which deletes those fields). Live until website_source_code_head_publish.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      force: z.boolean().optional().describe("Also delete reference fields pointing here."),
    })
    .strict(),
  output: z.object({
    id: fields.id("collection"),
    deleted: z.literal(true),
    deletedReferenceFieldIds: z.array(z.string()),
  }),
  annotations: presets.delete,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections/{collectionId}/delete" },
  async handler(input, ctx) {
    const record = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    const referencing = await referencingFields(ctx.stores, input.websiteId, record.id);
    if (referencing.length && !input.force) {
      throw new ApiError(
        "conflict",
        `Collection '${record.slug}' is referenced by ${referencing.length} field(s) of other collections (${referencing.map((f) => f.key).join(", ")}); nothing was deleted.`,
        {
          suggestion:
            "Delete those fields with {{cms.fields.delete}} first, or call again with force: true to delete them with the collection.",
        },
      );
    }
    for (const field of referencing) await ctx.stores.cms.deleteField(field.id);
    await ctx.stores.cms.deleteCollection(record.id);
    return { id: record.id, deleted: true as const, deletedReferenceFieldIds: referencing.map((f) => f.id) };
  },
});
