import type { AssetRecord } from "../../db/stores/assets.ts";
import { assetPath } from "./assets.ts";

/** CMS field types whose values name assets (an asset id or a URL). */
export const ASSET_FIELD_TYPES: ReadonlySet<string> = new Set(["image", "images", "file"]);

/** The strings of asset fields' values: candidate asset ids to look up. */
export function assetIdsIn(
  values: Record<string, unknown>,
  keys: readonly string[],
  into: Set<string>,
): void {
  for (const key of keys)
    for (const value of [values[key]].flat()) if (typeof value === "string") into.add(value);
}

/**
 * A build's values with assets resolved: a value that is the id of one of the website's assets becomes its path
 * (`/_assets/<sha256>/<name>`), and `$assets[key]` holds the asset (path, contentType, width, height, alt; an
 * array for `images`) for `Image` of `sitewright:assets`. URLs and ids of no asset stay as they are.
 */
export function withAssets(
  values: Record<string, unknown>,
  keys: readonly string[],
  assets: ReadonlyMap<string, AssetRecord>,
): Record<string, unknown> {
  if (assets.size === 0 || keys.length === 0) return values;
  const describe = (value: unknown) => {
    const asset = typeof value === "string" ? assets.get(value) : undefined;
    if (!asset) return value;
    const { contentType, width, height, alt } = asset;
    return { path: assetPath(asset), contentType, width, height, alt };
  };
  const pathOf = (info: unknown) =>
    info && typeof info === "object" ? (info as { path: string }).path : info;
  const out = { ...values };
  const described: Record<string, unknown> = {};
  for (const key of keys) {
    const value = values[key];
    if (value === undefined || value === null) continue;
    const info = Array.isArray(value) ? value.map(describe) : describe(value);
    if (!Array.isArray(value) && info === value) continue;
    if (Array.isArray(info) && info.every((entry, i) => entry === (value as unknown[])[i])) continue;
    described[key] = info;
    out[key] = Array.isArray(info) ? info.map(pathOf) : pathOf(info);
  }
  if (Object.keys(described).length) out.$assets = described;
  return out;
}
