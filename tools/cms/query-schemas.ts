import { z } from "zod";
import { OPERATORS } from "../../src/services/cms/query.ts";
import { MAX_INCLUDE } from "../../src/services/cms/query-run.ts";

/** Query-related input schemas of the item tools (list and query). */
export const status = z
  .enum(["draft", "published", "all"])
  .default("all")
  .describe("draft: unpublished; published: has published values.");

const conditionShape = {
  field: z.string().min(1).describe("A field key, or id, slug, createdAt, updatedAt, publishedAt, position."),
  op: z.enum(OPERATORS),
  value: z.unknown().optional().describe("An array for in/notIn, a boolean for isNull."),
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
    "{field, op, value}, or {and: [...]} / {or: [...]} of them, nested once. contains on list fields: has the element.",
  );

export const sort = z
  .array(z.object({ field: z.string().min(1), direction: z.enum(["asc", "desc"]).optional() }).strict())
  .max(3)
  .describe(
    "Empty values sort first ascending; ties by id. Default: relevance with search, else creation order.",
  );

export const archived = z
  .enum(["exclude", "include", "only"])
  .default("exclude")
  .describe("Archived items (cms_items_archive).");

export const include = z
  .array(z.string().min(1))
  .min(1)
  .max(MAX_INCLUDE)
  .describe("Reference field keys whose items come back in included (by id).");
