import { z } from "zod";
import type { CmsCollectionRecord } from "../../src/db/stores/cms.ts";
import type { Stores } from "../../src/db/stores/index.ts";
import { ApiError } from "../../src/kernel/errors.ts";
import { MAX_QUERY_ITEMS, OPERATORS } from "../../src/services/cms/query.ts";

export const status = z
  .enum(["draft", "published", "all"])
  .default("all")
  .describe("draft: never published or unpublished; published: has published values; all (default).");

const conditionShape = {
  field: z.string().min(1).describe("A field key, or id, slug, createdAt, updatedAt, publishedAt."),
  op: z.enum(OPERATORS),
  value: z.unknown().optional().describe("Operand (an array for in/notIn, true/false for isNull)."),
};
const condition = z.object(conditionShape).strict();
const partialCondition = z.object(conditionShape).partial();

export const filter = partialCondition
  .extend({
    and: z
      .array(partialCondition.extend({ or: z.array(condition).min(1).max(20).optional() }).strict())
      .min(1)
      .max(20)
      .optional(),
    or: z
      .array(partialCondition.extend({ and: z.array(condition).min(1).max(20).optional() }).strict())
      .min(1)
      .max(20)
      .optional(),
  })
  .strict()
  .describe(
    "One condition {field, op, value}, or {and: [...]} / {or: [...]} of conditions, each of which may itself be one {or: [...]} (inside and) or {and: [...]} (inside or). Operators: eq, ne, lt, lte, gt, gte, in, notIn, contains (case-insensitive substring; for multiOption/images/references: has the element), startsWith (case-insensitive), isNull.",
  );

export const sort = z
  .array(z.object({ field: z.string().min(1), direction: z.enum(["asc", "desc"]).optional() }).strict())
  .max(3)
  .describe(
    "Up to 3 keys; empty values sort last either way; ties by createdAt then id. Default: creation order.",
  );

/** Most items a collection holds (queries run over a whole collection; see docs/cms.md). */
export const MAX_ITEMS = MAX_QUERY_ITEMS;

export async function assertItemCapacity(stores: Stores, collection: CmsCollectionRecord, adding: number) {
  const count = await stores.cms.countItems(collection.id);
  if (count + adding > MAX_ITEMS) {
    throw new ApiError(
      "conflict",
      `Collection '${collection.slug}' has ${count} items; a collection holds at most ${MAX_ITEMS}.`,
      {
        suggestion: "Delete items you no longer need with {{cms.items.delete}}.",
      },
    );
  }
}
