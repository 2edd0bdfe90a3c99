import type { CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { BuildMode, CmsItem, CmsProvider, CmsSnapshot } from "../../framework/types.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
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
  const collections = await stores.cms.listCollections(websiteId);
  for (const collection of collections) {
    const fields = await stores.cms.listFields(collection.id);
    const rows = await stores.cms.listItems(collection.id, { published: mode === "publish" });
    snapshot[collection.slug] = rows
      .filter((row) => !row.archived)
      .sort(byManualOrder)
      .map((row): CmsItem => {
        const values = orderedValues(fields, mode === "publish" ? row.publishedValues : row.draftValues);
        const html = richTextHtml(fields, values);
        return {
          id: row.id,
          slug: row.slug,
          values: Object.keys(html).length ? { ...values, $html: html } : values,
          createdAt: iso(row.createdAt),
          updatedAt: iso(row.updatedAt),
          publishedAt: isoOrNull(row.publishedAt),
        };
      });
  }
  return snapshot;
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
