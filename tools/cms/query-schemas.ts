import { z } from "zod";
import { OPERATORS } from "../../src/services/cms/query.ts";
import { MAX_INCLUDE } from "../../src/services/cms/query-run.ts";

/** Query-related input schemas of the item tools (list and query). */
export const status = z
  .enum(["draft", "published", "all"])
  .default("all")
  .describe("draft: never published or unpublished; published: has published values; all (default).");

const conditionShape = {
  field: z
    .string()
    .min(1)
    .describe("A field key, or id, slug, createdAt, updatedAt, publishedAt, position (manual order)."),
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
    "Up to 3 keys (a field key, or id, slug, createdAt, updatedAt, publishedAt, position = manual order). Empty values are the smallest: first ascending, last descending. Ties by id, in the last key's direction. Default: relevance with search, else creation order.",
  );

export const archived = z
  .enum(["exclude", "include", "only"])
  .default("exclude")
  .describe("Archived items (cms_items_archive): exclude (default), include, or only archived ones.");

export const include = z
  .array(z.string().min(1))
  .min(1)
  .max(MAX_INCLUDE)
  .describe(
    "Keys of reference/references fields: the items they point to are returned in `included` (by id), from this website only; with status published only published, unarchived ones.",
  );
