// Running a compiled item query page by page, and the referenced items a query includes.
import type { CmsCollectionRecord, CmsFieldRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { decodeKeyset, encodeKeyset } from "../../kernel/cursor.ts";
import { ApiError } from "../../kernel/errors.ts";
import { optionsOf } from "./fields.ts";
import type { CompiledQuery } from "./query.ts";

/** Runs one page of a compiled query: `limit` items after `cursor`, and the cursor of the next page (or null). */
export async function runQuery(
  stores: Stores,
  query: CompiledQuery,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ items: CmsItemRecord[]; nextCursor: string | null }> {
  const length = query.plan.sort.length + 1;
  const after = page.cursor ? decodeKeyset(page.cursor, query.tag, length) : undefined;
  const rows = await stores.cms.queryItems({ ...query.plan, after, limit: page.limit + 1 });
  const more = rows.items.length > page.limit;
  const items = rows.items.slice(0, page.limit);
  const last = rows.keys[items.length - 1];
  return { items, nextCursor: more && last ? encodeKeyset(last, query.tag) : null };
}

/** Most reference fields one query may include. */
export const MAX_INCLUDE = 10;

/**
 * The items that the page's reference and references fields (`include`, by key) point to, by id, scoped to the
 * collection's website and the field's collection. Values read are the ones the query read (published values for
 * status published, where only published, unarchived referenced items are included).
 */
export async function includedItems(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  items: readonly CmsItemRecord[],
  include: readonly string[],
  status: "draft" | "published" | "all",
): Promise<Map<string, CmsItemRecord>> {
  const references = fields.filter((f) => f.type === "reference" || f.type === "references");
  const wanted = include.map((key, i) => {
    const field = references.find((f) => f.key === key);
    if (!field) {
      throw new ApiError(
        "validation",
        `include[${i}]: '${key}' is not a reference field of this collection.`,
        {
          validValues: references.map((f) => f.key),
        },
      );
    }
    return field;
  });
  const targets = new Map<string, string>(); // referenced id → expected collection
  for (const item of items) {
    const values = ((status === "published" ? item.publishedValues : item.draftValues) ?? {}) as Record<
      string,
      unknown
    >;
    for (const field of wanted) {
      const value = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
      const ids = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
      const target = optionsOf(field).collectionId ?? "";
      for (const id of ids) if (typeof id === "string") targets.set(id, target);
    }
  }
  const out = new Map<string, CmsItemRecord>();
  if (targets.size === 0) return out;
  for (const found of await stores.cms.getItems([...targets.keys()])) {
    if (found.websiteId !== collection.websiteId || found.collectionId !== targets.get(found.id)) continue;
    if (status === "published" && (found.status !== "published" || found.archived)) continue;
    out.set(found.id, found);
  }
  return out;
}

/** Fields of the collections of the given items (for projecting included items of other collections). */
export async function fieldsByCollection(
  stores: Stores,
  items: Iterable<CmsItemRecord>,
): Promise<Map<string, CmsFieldRecord[]>> {
  const out = new Map<string, CmsFieldRecord[]>();
  for (const item of items) {
    if (!out.has(item.collectionId))
      out.set(item.collectionId, await stores.cms.listFields(item.collectionId));
  }
  return out;
}
