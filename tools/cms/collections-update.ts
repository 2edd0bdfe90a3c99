import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { fields, nameText, proseText } from "../../src/kernel/schemas.ts";
import { assertCollectionSlug, loadCollection, projectCollection } from "../../src/services/cms/service.ts";
import { cmsCollectionsGroup } from "./groups.ts";
import { collection, collectionId, collectionSlug } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.update",
  group: cmsCollectionsGroup,
  title: "Update a CMS collection",
  description:
    "Renames a collection or changes its slug or description; omitted fields stay. A new slug breaks pages reading the old one: fix them before publishing. Fields: cms_fields_update.",
  input: z
    .object({
      websiteId: fields.websiteId(),
      collectionId: collectionId(),
      name: nameText(z.string().trim().min(1).max(100)).optional(),
      slug: collectionSlug.optional(),
      description: proseText(z.string().max(1000)).optional(),
    })
    .strict(),
  output: collection,
  annotations: presets.update,
  scope: { websiteId: "websiteId" },
  http: { method: "PATCH", path: "/cms/collections/{collectionId}" },
  async handler(input, ctx) {
    const record = await loadCollection(ctx.stores, input.websiteId, input.collectionId);
    if (input.slug !== undefined)
      await assertCollectionSlug(ctx.stores, input.websiteId, input.slug, record.id);
    const patch = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      updatedAt: ctx.now,
    };
    await ctx.stores.cms.updateCollection(record.id, patch);
    return projectCollection({ ...record, ...patch }, await ctx.stores.cms.listFields(record.id));
  },
});
