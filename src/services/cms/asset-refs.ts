// Asset fields (image, images, file): an id-shaped value must name an asset of the item's website.
import type { CmsFieldRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { isIdShaped } from "../../kernel/ids.ts";
import { ASSET_FIELD_TYPES, assetIdsIn } from "../assets/cms-values.ts";

const assetKeys = (fields: readonly CmsFieldRecord[]) =>
  fields.filter((f) => ASSET_FIELD_TYPES.has(f.type)).map((f) => f.key);

/** The ids among `valueSets`' asset values that are assets of the website, in one lookup. */
export async function existingAssets(
  stores: Stores,
  websiteId: string,
  fields: readonly CmsFieldRecord[],
  valueSets: readonly Record<string, unknown>[],
): Promise<ReadonlySet<string>> {
  const keys = assetKeys(fields);
  if (keys.length === 0) return new Set();
  const candidates = new Set<string>();
  for (const values of valueSets) assetIdsIn(values, keys, candidates);
  const ids = [...candidates].filter(isIdShaped);
  if (ids.length === 0) return new Set();
  return new Set((await stores.assets.getMany(websiteId, ids)).map((asset) => asset.id));
}

/** The first id-shaped string of an asset field's `value` that names no asset of `found` (a URL never does). */
export function unknownAsset(value: unknown, found: ReadonlySet<string>): string | undefined {
  return [value].flat().find((v): v is string => typeof v === "string" && isIdShaped(v) && !found.has(v));
}

/**
 * Refuses an asset value that is an id (not a URL) of no asset of the website (`found`, from existingAssets),
 * naming `values.<key>`; returns `values`.
 */
export function checkAssets(
  fields: readonly CmsFieldRecord[],
  values: Record<string, unknown>,
  found: ReadonlySet<string>,
): Record<string, unknown> {
  for (const key of assetKeys(fields)) {
    const unknown = unknownAsset(values[key], found);
    if (unknown === undefined) continue;
    throw new ApiError("validation", `values.${key}: '${unknown}' is not an asset of this website.`, {
      suggestion:
        "List the website's assets with {{assets.list}} (or upload one with {{assets.upload}}) and pass its id, or pass an absolute http(s) URL.",
    });
  }
  return values;
}
