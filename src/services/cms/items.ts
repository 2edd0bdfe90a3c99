// Items: values checked against fields, slugs, create, update, publish.
import {
  type CmsCollectionRecord,
  type CmsFieldRecord,
  type CmsItemRecord,
  isUniqueViolation,
} from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { checkValues, isEmpty, optionsOf, STRING_TYPES, TEXT_TYPES } from "./fields.ts";
import { nextItemPosition } from "./organize.ts";
import { ITEM_SLUG, orderedValues, slugifyText } from "./records.ts";

export async function checkItemValues(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
  /** Unused since the store enforces unique values (kept for callers). */
  _exceptItemId?: string,
  _siblings: readonly Record<string, unknown>[] = [],
): Promise<Record<string, unknown>> {
  const checked = checkValues(fields, values);
  for (const field of fields) {
    const value = checked[field.key];
    if (value === undefined) continue;
    if (field.type === "reference" || field.type === "references") {
      const ids = (Array.isArray(value) ? value : [value]) as string[];
      const found = await stores.cms.getItems(ids);
      const target = optionsOf(field).collectionId;
      for (const id of ids) {
        const item = found.find((row) => row.id === id);
        if (!item || item.collectionId !== target || item.websiteId !== collection.websiteId) {
          throw new ApiError(
            "validation",
            `values.${field.key}: '${id}' is not an item of the referenced collection '${target}' of this website.`,
            {
              suggestion:
                "List the referenced collection's items with {{cms.items.list}} and pass their ids.",
            },
          );
        }
      }
    }
    // Unique fields: the store claims values in cms_item_uniques (database-enforced, also under concurrency)
    // and refuses a clash with `conflict` naming values.<key>; items of one bulk call clash the same way.
  }
  return checked;
}

/** Fills missing values from field defaults. */
export function withDefaults(fields: readonly CmsFieldRecord[], values: Record<string, unknown>) {
  const out = { ...values };
  for (const field of fields) {
    if (out[field.key] === undefined && !isEmpty(field.defaultValue)) out[field.key] = field.defaultValue;
  }
  return out;
}

/** A free slug: `base`, else `base-2`, `base-3`, … */
export async function freeItemSlug(
  stores: Stores,
  collectionId: string,
  base: string,
  taken: ReadonlySet<string> = new Set(),
): Promise<string> {
  const used = new Set([...(await stores.cms.slugsWithPrefix(collectionId, base)), ...taken]);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The slug base from the values: a name or title field, else the first text field, else "item". */
export function slugBase(fields: readonly CmsFieldRecord[], values: Record<string, unknown>): string {
  const preferred =
    fields.find((f) => f.key === "name" && typeof values[f.key] === "string") ??
    fields.find((f) => f.key === "title" && typeof values[f.key] === "string") ??
    fields.find(
      (f) => STRING_TYPES.has(f.type) && TEXT_TYPES.has(f.type) && typeof values[f.key] === "string",
    );
  const text = preferred ? slugifyText(String(values[preferred.key])) : "";
  return text || "item";
}

export async function assertItemSlug(stores: Stores, collectionId: string, slug: string, exceptId?: string) {
  if (!ITEM_SLUG.test(slug) || slug.length > 100) {
    throw new ApiError(
      "validation",
      "slug: must be lowercase letters, digits and single hyphens, at most 100 characters.",
    );
  }
  const existing = await stores.cms.getItemBySlug(collectionId, slug);
  if (existing && existing.id !== exceptId) {
    throw new ApiError("conflict", `slug: this collection already has an item with slug '${slug}'.`, {
      suggestion: "Choose another slug, or omit slug to have one generated.",
    });
  }
}

export interface ItemCreateInput {
  slug?: string | undefined;
  values: Record<string, unknown>;
  publish?: boolean | undefined;
}

export async function createItem(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  input: ItemCreateInput,
  now: number,
  batch: { slugs: Set<string>; values: Record<string, unknown>[] } = { slugs: new Set(), values: [] },
): Promise<CmsItemRecord> {
  const values = await checkItemValues(
    stores,
    collection,
    fields,
    withDefaults(fields, input.values),
    undefined,
    batch.values,
  );
  let slug: string;
  if (input.slug !== undefined) {
    await assertItemSlug(stores, collection.id, input.slug);
    if (batch.slugs.has(input.slug)) {
      throw new ApiError("conflict", `slug: another item of this call has slug '${input.slug}'.`);
    }
    slug = input.slug;
  } else {
    slug = await freeItemSlug(stores, collection.id, slugBase(fields, values), batch.slugs);
  }
  const record: CmsItemRecord = {
    id: newId(),
    collectionId: collection.id,
    websiteId: collection.websiteId,
    slug,
    draftValues: values,
    publishedValues: input.publish ? values : null,
    status: input.publish ? "published" : "draft",
    version: 1,
    archived: false,
    // Manual order: a new item goes last (items created in one call keep their input order).
    position: await nextItemPosition(stores, collection.id),
    createdAt: now,
    updatedAt: now,
    publishedAt: input.publish ? now : null,
  };
  try {
    await stores.cms.insertItem(record);
  } catch (error) {
    // A concurrent call took the slug between the check and the insert (the transaction is rolled back).
    if (isUniqueViolation(error)) {
      throw new ApiError("conflict", `slug: another item of this collection took slug '${slug}' meanwhile.`, {
        suggestion: "Retry the call.",
      });
    }
    throw error;
  }
  batch.slugs.add(slug);
  batch.values.push(values);
  return record;
}

export interface ItemUpdateInput {
  slug?: string | undefined;
  /** Keys to set; null clears a value. Other values are kept. */
  values?: Record<string, unknown> | undefined;
  expectedVersion?: number | undefined;
}

/** Changes an item's draft (never its published values). */
export async function updateItem(
  stores: Stores,
  item: CmsItemRecord,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  input: ItemUpdateInput,
  now: number,
): Promise<CmsItemRecord> {
  if (input.expectedVersion !== undefined && input.expectedVersion !== item.version)
    throw versionConflict(item);
  const merged = { ...orderedValues(fields, item.draftValues), ...(input.values ?? {}) };
  const values = await checkItemValues(stores, collection, fields, merged, item.id);
  if (input.slug !== undefined) await assertItemSlug(stores, collection.id, input.slug, item.id);
  const updated = await stores.cms.updateItem(
    item.id,
    { draftValues: values, ...(input.slug !== undefined ? { slug: input.slug } : {}), updatedAt: now },
    item.version,
  );
  if (!updated) throw versionConflict(item);
  return updated;
}

export const versionConflict = (item: CmsItemRecord) =>
  new ApiError(
    "conflict",
    `Item '${item.id}' changed since version ${item.version} was read; nothing was written.`,
    {
      suggestion:
        "Read the item again with {{cms.items.get}}, reapply your change, and pass its current version.",
    },
  );

/** Publishes (draft values → published values, re-validated) or unpublishes (published values cleared). */
export async function setItemPublished(
  stores: Stores,
  item: CmsItemRecord,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  published: boolean,
  now: number,
): Promise<CmsItemRecord> {
  let patch: Parameters<Stores["cms"]["updateItem"]>[1];
  if (published) {
    let values: Record<string, unknown>;
    try {
      values = await checkItemValues(
        stores,
        collection,
        fields,
        orderedValues(fields, item.draftValues),
        item.id,
      );
    } catch (error) {
      if (error instanceof ApiError) {
        throw new ApiError(error.kind, `Item '${item.id}': ${error.message}`, {
          ...error.options,
          suggestion: "Fix the item's draft with {{cms.items.update}}, then publish it again.",
        });
      }
      throw error;
    }
    patch = {
      draftValues: values,
      publishedValues: values,
      status: "published",
      publishedAt: now,
      updatedAt: now,
    };
  } else {
    patch = { publishedValues: null, status: "draft", publishedAt: null, updatedAt: now };
  }
  const updated = await stores.cms.updateItem(item.id, patch, item.version);
  if (!updated) throw versionConflict(item);
  return updated;
}
