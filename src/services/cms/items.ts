// Items: values checked against fields, slugs, create, update, publish.
import {
  type CmsCollectionRecord,
  type CmsFieldRecord,
  type CmsItemRecord,
  isUniqueViolation,
} from "../../db/stores/cms.ts";
import { type UniqueRow, uniqueConflict, uniqueRows } from "../../db/stores/cms-index.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { checkAssets, existingAssets } from "./asset-refs.ts";
import { checkValues, isEmpty, optionsOf, STRING_TYPES, TEXT_TYPES } from "./fields.ts";
import { nextItemPosition, POSITION_LIMIT, POSITION_STEP, versionConflict } from "./organize.ts";
import { htmlToStore, ITEM_SLUG, orderedValues, slugifyText } from "./records.ts";

export async function checkItemValues(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const checked = checkValues(fields, values);
  checkReferences(collection, fields, checked, await referencedItems(stores, fields, [checked]));
  checkAssets(fields, checked, await existingAssets(stores, collection.websiteId, fields, [checked]));
  return checked;
}

const isReference = (field: CmsFieldRecord) => field.type === "reference" || field.type === "references";
const idsIn = (value: unknown) => (Array.isArray(value) ? value : [value]) as string[];

/** The items that reference fields of `valueSets` point at, in one lookup. */
async function referencedItems(
  stores: Stores,
  fields: readonly CmsFieldRecord[],
  valueSets: readonly Record<string, unknown>[],
): Promise<Map<string, CmsItemRecord>> {
  const ids = new Set<string>();
  for (const field of fields.filter(isReference)) {
    for (const values of valueSets)
      if (values[field.key] !== undefined) for (const id of idsIn(values[field.key])) ids.add(id);
  }
  const found = ids.size > 0 ? await stores.cms.getItems([...ids]) : [];
  return new Map(found.map((row) => [row.id, row]));
}

/** Every reference must be an item of the referenced collection of the same website; returns `values`. */
function checkReferences(
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
  found: ReadonlyMap<string, CmsItemRecord>,
): Record<string, unknown> {
  for (const field of fields.filter(isReference)) {
    if (values[field.key] === undefined) continue;
    const target = optionsOf(field).collectionId;
    for (const id of idsIn(values[field.key])) {
      const item = found.get(id);
      if (!item || item.collectionId !== target || item.websiteId !== collection.websiteId) {
        throw new ApiError(
          "validation",
          `values.${field.key}: '${id}' is not an item of the referenced collection '${target}' of this website.`,
          {
            suggestion: "List the referenced collection's items with {{cms.items.list}} and pass their ids.",
          },
        );
      }
    }
  }
  // Unique fields: the store claims values in cms_item_uniques (database-enforced, also under concurrency).
  return values;
}

/** Fills missing values from field defaults. */
export function withDefaults(fields: readonly CmsFieldRecord[], values: Record<string, unknown>) {
  const out = { ...values };
  for (const field of fields) {
    if (out[field.key] === undefined && !isEmpty(field.defaultValue)) out[field.key] = field.defaultValue;
  }
  return out;
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
  if (!ITEM_SLUG.test(slug) || slug.length > 100) throw invalidSlug();
  const existing = await stores.cms.getItemBySlug(collectionId, slug);
  if (existing && existing.id !== exceptId) throw slugTaken(slug);
}

const invalidSlug = () =>
  new ApiError(
    "validation",
    "slug: must be lowercase letters, digits and single hyphens, at most 100 characters.",
  );

const slugTaken = (slug: string) =>
  new ApiError("conflict", `slug: this collection already has an item with slug '${slug}'.`, {
    suggestion: "Choose another slug, or omit slug to have one generated.",
  });

export interface ItemCreateInput {
  slug?: string | undefined;
  values: Record<string, unknown>;
  publish?: boolean | undefined;
}

/** Creates one item (see createItems). */
export async function createItem(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  input: ItemCreateInput,
  now: number,
): Promise<CmsItemRecord> {
  const [outcome] = await createItems(stores, collection, fields, [input], now);
  if (outcome instanceof ApiError) throw outcome;
  return outcome as CmsItemRecord;
}

/**
 * Creates items of one collection, each checked on its own in input order: per input the record written or
 * the ApiError that refused it (nothing of it written). Every check runs in memory against a few lookups for
 * the whole call (references, slugs, unique values), then the accepted items are written in multi-row
 * statements. Items of the call clash with each other as with existing ones (the earlier one wins). A clash
 * with a concurrent writer (which the database's unique keys catch) is a `conflict` for the whole call.
 */
export async function createItems(
  stores: Stores,
  collection: CmsCollectionRecord,
  fields: readonly CmsFieldRecord[],
  inputs: readonly ItemCreateInput[],
  now: number,
): Promise<(CmsItemRecord | ApiError)[]> {
  const checked = inputs.map((input) =>
    refusal(() => checkValues(fields, withDefaults(fields, input.values))),
  );
  const valid = checked.filter((v): v is Record<string, unknown> => !(v instanceof ApiError));
  const found = await referencedItems(stores, fields, valid);
  const assets = await existingAssets(stores, collection.websiteId, fields, valid);
  const values = checked.map((v) =>
    v instanceof ApiError
      ? v
      : refusal(() => checkAssets(fields, checkReferences(collection, fields, v, found), assets)),
  );
  const ids = inputs.map(() => newId());
  const claims = values.map((v, k) =>
    v instanceof ApiError
      ? []
      : [
          ...uniqueRows({ id: ids[k]!, collectionId: collection.id }, "d", fields, v),
          ...(inputs[k]!.publish
            ? uniqueRows({ id: ids[k]!, collectionId: collection.id }, "p", fields, v)
            : []),
        ],
  );
  const claimKey = (r: UniqueRow) => `${r.fieldKey}\u0000${r.state}\u0000${r.hash}`;
  const claimed = new Set((await stores.cms.heldUniques(collection.id, claims.flat())).map(claimKey));
  const wanted = values.map((v, k) => inputs[k]!.slug ?? (v instanceof ApiError ? "" : slugBase(fields, v)));
  const existing = new Set(await stores.cms.slugsIn(collection.id, wanted.filter(Boolean)));
  const slugs = freeSlugs(stores, collection.id, existing);
  const outcomes: (CmsItemRecord | ApiError)[] = [];
  const records: CmsItemRecord[] = [];
  for (const [k, input] of inputs.entries()) {
    const v = values[k]!;
    if (v instanceof ApiError) {
      outcomes.push(v);
      continue;
    }
    let slug: string;
    try {
      slug = input.slug !== undefined ? slugs.claim(input.slug) : await slugs.generate(wanted[k]!);
      const clash = claims[k]!.find((r) => claimed.has(claimKey(r)));
      if (clash) throw uniqueConflict(clash.fieldKey, clash.state);
    } catch (error) {
      outcomes.push(asRefusal(error));
      continue;
    }
    slugs.taken.add(slug);
    for (const r of claims[k]!) claimed.add(claimKey(r));
    const record = newRecord(
      ids[k]!,
      collection,
      slug,
      v,
      htmlToStore(fields, v),
      input.publish === true,
      now,
    );
    records.push(record);
    outcomes.push(record);
  }
  if (records.length === 0) return outcomes;
  // Manual order: new items go last, in input order.
  const positions = await newPositions(stores, collection.id, records.length);
  records.forEach((record, n) => {
    record.position = positions[n]!;
  });
  try {
    await stores.cms.insertItems(records);
  } catch (error) {
    throw concurrentClash(error);
  }
  return outcomes;
}

const refusal = <T>(check: () => T): T | ApiError => {
  try {
    return check();
  } catch (error) {
    return asRefusal(error);
  }
};

/** An item's refusal: an ApiError other than internal; anything else fails the whole call. */
function asRefusal(error: unknown): ApiError {
  if (error instanceof ApiError && error.kind !== "internal") return error;
  throw error;
}

/** Slugs of one call: an explicit one must be free, a generated one is `base`, else `base-2`, `base-3`, … */
function freeSlugs(stores: Stores, collectionId: string, existing: ReadonlySet<string>) {
  const taken = new Set<string>();
  const prefixed = new Map<string, Set<string>>();
  return {
    taken,
    claim(slug: string) {
      if (!ITEM_SLUG.test(slug) || slug.length > 100) throw invalidSlug();
      if (existing.has(slug)) throw slugTaken(slug);
      if (taken.has(slug))
        throw new ApiError("conflict", `slug: another item of this call has slug '${slug}'.`);
      return slug;
    },
    async generate(base: string) {
      if (!existing.has(base) && !taken.has(base)) return base;
      let used = prefixed.get(base);
      if (!used) {
        used = new Set(await stores.cms.slugsWithPrefix(collectionId, base));
        prefixed.set(base, used);
      }
      for (let n = 2; ; n++) {
        const slug = `${base}-${n}`;
        if (!used.has(slug) && !taken.has(slug)) return slug;
      }
    },
  };
}

function newRecord(
  id: string,
  collection: CmsCollectionRecord,
  slug: string,
  values: Record<string, unknown>,
  html: CmsItemRecord["draftHtml"],
  publish: boolean,
  now: number,
): CmsItemRecord {
  return {
    id,
    collectionId: collection.id,
    websiteId: collection.websiteId,
    slug,
    draftValues: values,
    publishedValues: publish ? values : null,
    draftHtml: html,
    publishedHtml: publish ? html : null,
    status: publish ? "published" : "draft",
    version: 1,
    archived: false,
    position: 0,
    createdAt: now,
    updatedAt: now,
    publishedAt: publish ? now : null,
  };
}

/** Positions for `count` new items after every other item: STEP apart, renumbering first when they would not fit. */
async function newPositions(stores: Stores, collectionId: string, count: number): Promise<number[]> {
  let first = await nextItemPosition(stores, collectionId);
  if (first + (count - 1) * POSITION_STEP > POSITION_LIMIT) {
    const order = await stores.cms.listItemOrder(collectionId);
    await stores.cms.setItemPositions(
      order.map((row, n) => ({ id: row.id, position: (n + 1) * POSITION_STEP })),
    );
    first = (order.length + 1) * POSITION_STEP;
  }
  return Array.from({ length: count }, (_, n) => first + n * POSITION_STEP);
}

/** A write the checks passed but the database refused: a concurrent call took a slug or unique value meanwhile. */
function concurrentClash(error: unknown): unknown {
  const suggestion = "Retry the call.";
  if (error instanceof ApiError && error.kind === "conflict") {
    const message = `${error.message} A concurrent call wrote it meanwhile; nothing of this call was written.`;
    return new ApiError("conflict", message, { suggestion });
  }
  if (!isUniqueViolation(error)) return error;
  const message =
    "slug: a concurrent call took a slug of this call meanwhile; nothing of this call was written.";
  return new ApiError("conflict", message, { suggestion });
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
  const values = await checkItemValues(stores, collection, fields, merged);
  if (input.slug !== undefined) await assertItemSlug(stores, collection.id, input.slug, item.id);
  const updated = await stores.cms.updateItem(
    item.id,
    {
      draftValues: values,
      draftHtml: htmlToStore(fields, values, { values: item.draftValues, html: item.draftHtml }),
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      updatedAt: now,
    },
    item.version,
  );
  if (!updated) throw versionConflict(item);
  return updated;
}

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
      values = await checkItemValues(stores, collection, fields, orderedValues(fields, item.draftValues));
    } catch (error) {
      if (error instanceof ApiError) {
        throw new ApiError(error.kind, `Item '${item.id}': ${error.message}`, {
          ...error.options,
          suggestion: "Fix the item's draft with {{cms.items.update}}, then publish it again.",
        });
      }
      throw error;
    }
    const html = htmlToStore(fields, values, { values: item.draftValues, html: item.draftHtml });
    patch = {
      draftValues: values,
      publishedValues: values,
      draftHtml: html,
      publishedHtml: html,
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
