import type { AssetRecord } from "../../db/stores/assets.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { Platform, PlatformConfig } from "../../kernel/platform.ts";
import { iso } from "../../kernel/schemas.ts";
import { websiteUrl } from "../websites/websites.ts";

/** The path of an asset on its website's host: `/_assets/<sha256>/<name>`; a new version gets a new path. */
export const assetPath = (asset: Pick<AssetRecord, "sha256" | "name">): string =>
  `/_assets/${asset.sha256}/${encodeURIComponent(asset.name)}`;

export function projectAsset(config: PlatformConfig, slug: string, asset: AssetRecord) {
  return {
    id: asset.id,
    websiteId: asset.websiteId,
    name: asset.name,
    folder: asset.folder,
    alt: asset.alt,
    contentType: asset.contentType,
    size: asset.size,
    width: asset.width,
    height: asset.height,
    sha256: asset.sha256,
    path: assetPath(asset),
    url: new URL(assetPath(asset), websiteUrl(config, slug)).href,
    createdAt: iso(asset.createdAt),
    updatedAt: iso(asset.updatedAt),
  };
}

/** Most files of the live deployment read when looking for pages that use an asset. */
const MAX_SCANNED_FILES = 2_000;
const SCANNED_TYPES = /^(text\/html|text\/css|application\/json|text\/xml|application\/xml)/;

/** Pages and files of a deployment whose text names the asset's URL path. */
export async function pagesUsing(
  platform: Platform,
  read: <T>(work: (stores: Stores) => Promise<T>) => Promise<T>,
  websiteId: string,
  sha256: string,
): Promise<{ deploymentId: string | null; paths: string[] }> {
  const { deploymentId, outputs } = await read(async (stores) => {
    const deploymentId = await stores.deployments.publishedId(websiteId);
    return { deploymentId, outputs: deploymentId ? await stores.deployments.outputs(deploymentId) : [] };
  });
  const needle = `/_assets/${sha256}/`;
  const paths: string[] = [];
  for (const output of outputs.filter((o) => SCANNED_TYPES.test(o.contentType)).slice(0, MAX_SCANNED_FILES)) {
    const bytes = await platform.blobs.get(output.sha256);
    if (bytes && Buffer.from(bytes).includes(needle)) paths.push(`/${output.path}`);
  }
  return { deploymentId, paths };
}

/** The usage of an asset: live pages that name it and CMS items whose values name it (by id or URL). */
export interface AssetUsage {
  pages: { path: string }[];
  cmsItems: { collectionId: string; itemId: string; fieldKey: string; state: "draft" | "published" }[];
}

export async function cmsItemsUsing(stores: Stores, asset: AssetRecord): Promise<AssetUsage["cmsItems"]> {
  const rows = await stores.assets.cmsReferences(asset.websiteId, asset.id, `/_assets/${asset.sha256}/`);
  return rows.map((row) => ({
    ...row,
    state: row.state === "p" ? ("published" as const) : ("draft" as const),
  }));
}
