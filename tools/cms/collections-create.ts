import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { newId } from "../../src/kernel/ids.ts";
import { fields, nameText, proseText } from "../../src/kernel/schemas.ts";
import {
  assertCollectionCapacity,
  assertCollectionSlug,
  insertField,
  insertOrConflict,
  projectCollection,
  slugifyText,
} from "../../src/services/cms/service.ts";
import { cmsCollectionsGroup } from "./groups.ts";
import { collection, collectionSlug, fieldInput, MAX_COLLECTIONS, MAX_FIELDS } from "./schemas.ts";

export default defineTool({
  operationId: "cms.collections.create",
  group: cmsCollectionsGroup,
  title: "Create a CMS collection",
  description: `Creates a collection and its fields. Pages read it by slug (cms.list("blog"); pages/blog/[slug].tsx with export const collection = "blog" renders each published item). Items have their own slug. At most ${MAX_COLLECTIONS} per website, ${MAX_FIELDS} fields. Next: cms_items_create.`,
  input: z
    .object({
      websiteId: fields.websiteId(),
      name: nameText(z.string().trim().min(1).max(100)).describe("Display name, e.g. Blog posts."),
      slug: collectionSlug.optional(),
      description: proseText(z.string().max(1000)).optional(),
      fields: z.array(fieldInput).max(MAX_FIELDS).optional().describe("Fields in order."),
    })
    .strict(),
  output: collection,
  annotations: presets.create,
  scope: { websiteId: "websiteId" },
  http: { method: "POST", path: "/cms/collections" },
  async handler(input, ctx) {
    await ctx.access.website(input.websiteId);
    await assertCollectionCapacity(ctx.stores, input.websiteId);
    let slug = input.slug;
    if (slug === undefined) {
      const base = slugifyText(input.name, 60) || "collection";
      slug = base;
      for (let n = 2; await ctx.stores.cms.getCollectionBySlug(input.websiteId, slug); n++)
        slug = `${base}-${n}`;
    } else {
      await assertCollectionSlug(ctx.stores, input.websiteId, slug);
    }
    const keys = new Set<string>();
    for (const [index, spec] of (input.fields ?? []).entries()) {
      if (keys.has(spec.key)) {
        throw new ApiError(
          "conflict",
          `fields[${index}].key: '${spec.key}' appears twice; keys are unique per collection.`,
        );
      }
      keys.add(spec.key);
    }
    const record = {
      id: newId(),
      websiteId: input.websiteId,
      slug,
      name: input.name,
      description: input.description ?? "",
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await insertOrConflict(
      ctx.stores.cms.insertCollection(record),
      `slug: another call created a collection with slug '${slug}' meanwhile.`,
    );
    const created = [];
    for (const [index, spec] of (input.fields ?? []).entries()) {
      // A reference to the collection itself is allowed (it exists by now).
      created.push(
        await insertField(ctx.stores, input.websiteId, record.id, spec, index, ctx.now, `fields[${index}].`),
      );
    }
    return projectCollection(record, created);
  },
});
