import type { CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { BuildMode, CmsItem, CmsProvider, CmsSnapshot } from "../../framework/types.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
import { assetPath } from "../assets/assets.ts";
import { orderedValues, richTextHtml } from "./service.ts";

/**
 * Reads a website's CMS content as the build sees it, in one read: every collection by slug, its items in
 * manual order (`position`, then creation time and id; creation order until cms.items.reorder moves them).
 * Publish mode takes published items with their published values; preview takes every item with its draft
 * values. Archived items are left out of both. richText values stay Markdown under their key, and their safe
 * HTML is under `values.$html`.
 */
export async function readCmsSnapshot(
  stores: Stores,
  websiteId: string,
  mode: BuildMode,
): Promise<CmsSnapshot> {
  const snapshot: CmsSnapshot = {};
  const assetFields: { values: Record<string, unknown>; keys: string[] }[] = [];
  const collections = await stores.cms.listCollections(websiteId);
  for (const collection of collections) {
    const fields = await stores.cms.listFields(collection.id);
    const rows = await stores.cms.listItems(collection.id, { published: mode === "publish" });
    snapshot[collection.slug] = rows
      .filter((row) => !row.archived)
      .sort(byManualOrder)
      .map((row): CmsItem => {
        const ordered = orderedValues(fields, mode === "publish" ? row.publishedValues : row.draftValues);
        const html = richTextHtml(fields, ordered);
        const values = Object.keys(html).length ? { ...ordered, $html: html } : { ...ordered };
        const keys = fields.filter((f) => ASSET_FIELD_TYPES.has(f.type)).map((f) => f.key);
        if (keys.length) assetFields.push({ values, keys });
        return {
          id: row.id,
          slug: row.slug,
          values,
          createdAt: iso(row.createdAt),
          updatedAt: iso(row.updatedAt),
          publishedAt: isoOrNull(row.publishedAt),
        };
      });
  }
  await resolveAssets(stores, websiteId, assetFields);
  return snapshot;
}

const ASSET_FIELD_TYPES = new Set(["image", "images", "file"]);

/**
 * Image and file values that name an asset of the website by id become its path (`/_assets/<sha256>/<name>`),
 * and `values.$assets[key]` holds the asset (path, contentType, width, height, alt; an array for `images`) for
 * `Image` of `sitewright:assets`. URLs and ids of no asset stay as they are.
 */
async function resolveAssets(
  stores: Stores,
  websiteId: string,
  entries: { values: Record<string, unknown>; keys: string[] }[],
): Promise<void> {
  const ids = new Set<string>();
  for (const { values, keys } of entries) {
    for (const key of keys)
      for (const value of [values[key]].flat()) if (typeof value === "string") ids.add(value);
  }
  if (ids.size === 0) return;
  const found = new Map((await stores.assets.getMany(websiteId, [...ids])).map((a) => [a.id, a]));
  if (found.size === 0) return;
  const describe = (value: unknown) => {
    const asset = typeof value === "string" ? found.get(value) : undefined;
    if (!asset) return value;
    const { contentType, width, height, alt } = asset;
    return { path: assetPath(asset), contentType, width, height, alt };
  };
  for (const { values, keys } of entries) {
    const described: Record<string, unknown> = {};
    for (const key of keys) {
      const value = values[key];
      if (value === undefined || value === null) continue;
      const info = Array.isArray(value) ? value.map(describe) : describe(value);
      if (info === value) continue;
      described[key] = info;
      values[key] = Array.isArray(info)
        ? info.map((entry) => (typeof entry === "object" && entry ? (entry as { path: string }).path : entry))
        : (info as { path: string }).path;
    }
    if (Object.keys(described).length) values.$assets = described;
  }
}

/** Manual order: position, then creation time, then id (byte order, as the store sorts). */
function byManualOrder(a: CmsItemRecord, b: CmsItemRecord): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A provider over a snapshot already read (the build takes its own snapshot from it, unchanged). */
export function snapshotProvider(snapshot: CmsSnapshot): CmsProvider {
  return {
    collections: () => Object.keys(snapshot),
    list: (collection) => snapshot[collection] ?? [],
  };
}

/** A provider that reads the website's content when the build asks (for previews). */
export function storeProvider(
  read: <T>(work: (stores: Stores) => Promise<T>) => Promise<T>,
  websiteId: string,
  mode: BuildMode,
): CmsProvider {
  let snapshot: Promise<CmsSnapshot> | undefined;
  const load = () => {
    snapshot ??= read((stores) => readCmsSnapshot(stores, websiteId, mode));
    return snapshot;
  };
  return {
    collections: async () => Object.keys(await load()),
    list: async (collection) => (await load())[collection] ?? [],
  };
}
