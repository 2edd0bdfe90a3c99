import type { AssetRecord } from "../../db/stores/assets.ts";
import type { CmsFieldRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { BuildMode, CmsItem, CmsProvider, CmsSnapshot } from "../../framework/types.ts";
import { iso, isoOrNull } from "../../kernel/schemas.ts";
import { ASSET_FIELD_TYPES, assetIdsIn, withAssets } from "../assets/cms-values.ts";
import { warmRichText } from "./rich-text.ts";
import { lacksHtml, orderedValues, richTextHtml } from "./service.ts";

/**
 * Reads a website's CMS content as the build sees it, in one read: every collection by slug, its items in
 * manual order (`position`, then creation time and id; creation order until cms.items.reorder moves them).
 * Publish mode takes published items with their published values; preview takes every item with its draft
 * values. Archived items are left out of both. richText values stay Markdown under their key, and their safe
 * HTML (stored when the values were written) is under `values.$html`; image and file values naming the website's assets are resolved (withAssets).
 */
export async function readCmsContent(
  stores: Stores,
  websiteId: string,
  mode: BuildMode,
): Promise<CmsContent> {
  const website = await stores.websites.get(websiteId);
  const content: CmsContent = {
    mode,
    organizationId: website?.organizationId ?? "",
    collections: [],
    assets: [],
  };
  const ids = new Set<string>();
  for (const collection of await stores.cms.listCollections(websiteId)) {
    const fields = await stores.cms.listFields(collection.id);
    const rows = (await stores.cms.listItems(collection.id, { published: mode === "publish" })).filter(
      (row) => !row.archived,
    );
    content.collections.push({ slug: collection.slug, fields, rows });
    const keys = fields.filter((f) => ASSET_FIELD_TYPES.has(f.type)).map((f) => f.key);
    for (const row of rows) {
      const values = (mode === "publish" ? row.publishedValues : row.draftValues) as Record<
        string,
        unknown
      > | null;
      if (values && keys.length) assetIdsIn(values, keys, ids);
    }
  }
  if (ids.size) content.assets = await stores.assets.getMany(websiteId, [...ids]);
  return content;
}

/** Reads the content and makes its snapshot in one go (renders inside the caller's read: not within a unit of work). */
export async function readCmsSnapshot(
  stores: Stores,
  websiteId: string,
  mode: BuildMode,
): Promise<CmsSnapshot> {
  return cmsSnapshotOf(await readCmsContent(stores, websiteId, mode));
}

/** A website's CMS rows as one read took them; `cmsSnapshotOf` makes the build's snapshot of them. */
export interface CmsContent {
  mode: BuildMode;
  /** The website's organization: its richText renders in that organization's turn (see markdown-pool.ts). */
  organizationId: string;
  collections: { slug: string; fields: CmsFieldRecord[]; rows: CmsItemRecord[] }[];
  /** The website's assets that image and file values name (see withAssets). */
  assets: AssetRecord[];
}

/**
 * The snapshot of content read by `readCmsSnapshot`, outside that read: richText is rendered off the main thread
 * first (a unit of work on SQLite is exclusive, so no rendering happens inside one).
 */
export async function cmsSnapshotOf(content: CmsContent): Promise<CmsSnapshot> {
  const snapshot: CmsSnapshot = {};
  const assets = new Map(content.assets.map((asset) => [asset.id, asset]));
  for (const { slug, fields, rows } of content.collections) {
    const assetKeys = fields.filter((f) => ASSET_FIELD_TYPES.has(f.type)).map((f) => f.key);
    const publish = content.mode === "publish";
    const valuesOf = (row: CmsItemRecord) =>
      orderedValues(fields, publish ? row.publishedValues : row.draftValues);
    const htmlOf = (row: CmsItemRecord) => (publish ? row.publishedHtml : row.draftHtml);
    // Only rows whose HTML is not stored yet (not backfilled) render, off the main thread.
    const unrendered = rows.filter((row) => lacksHtml(fields, valuesOf(row), htmlOf(row)));
    await warmRichText(fields, unrendered.map(valuesOf), content.organizationId);
    snapshot[slug] = [...rows].sort(byManualOrder).map((row): CmsItem => {
      const values = withAssets(valuesOf(row), assetKeys, assets);
      const html = richTextHtml(fields, values, htmlOf(row));
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
    snapshot ??= read((stores) => readCmsContent(stores, websiteId, mode)).then(cmsSnapshotOf);
    return snapshot;
  };
  return {
    collections: async () => Object.keys(await load()),
    list: async (collection) => (await load())[collection] ?? [],
  };
}
