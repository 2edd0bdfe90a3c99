import { BuildFailure, diagnostic } from "./diagnostics.ts";
import type { BuildMode, CmsItem, CmsProvider, CmsSnapshot } from "./types.ts";

/** Largest CMS snapshot one build takes (serialized JSON). */
export const MAX_CMS_SNAPSHOT_BYTES = 8 * 1024 * 1024;

/**
 * Reads every collection of the provider once, as plain JSON data: the render never calls back into
 * the platform. Items keep the provider's order; values that are not JSON (functions, cycles) fail.
 */
export async function snapshotCms(cms: CmsProvider | undefined, mode: BuildMode): Promise<CmsSnapshot> {
  const snapshot: CmsSnapshot = {};
  if (!cms) return snapshot;
  const names = [...(await cms.collections())].sort();
  for (const name of names) {
    const items = await cms.list(name, mode);
    snapshot[name] = items.map((item) => plainItem(name, item));
  }
  let size = 0;
  try {
    size = JSON.stringify(snapshot).length;
  } catch {
    throw new BuildFailure([diagnostic("(cms)", "CMS content is not plain JSON data.")]);
  }
  if (size > MAX_CMS_SNAPSHOT_BYTES) {
    throw new BuildFailure([
      diagnostic("(cms)", `CMS content is ${size} bytes; a build takes at most ${MAX_CMS_SNAPSHOT_BYTES}.`),
    ]);
  }
  return snapshot;
}

function plainItem(collection: string, item: CmsItem): CmsItem {
  if (typeof item.slug !== "string" || item.slug === "") {
    throw new BuildFailure([diagnostic("(cms)", `An item of collection '${collection}' has no slug.`)]);
  }
  const out: CmsItem = { slug: item.slug, values: JSON.parse(JSON.stringify(item.values ?? {})) };
  if (item.id !== undefined) out.id = item.id;
  if (item.createdAt !== undefined) out.createdAt = item.createdAt;
  if (item.updatedAt !== undefined) out.updatedAt = item.updatedAt;
  if (item.publishedAt !== undefined) out.publishedAt = item.publishedAt;
  return out;
}

/**
 * Source of the `sitewright:cms` module inside the sandbox. It reads the snapshot the render hands
 * in (`__setCmsData`), deep-frozen so one page cannot change what the next one sees.
 */
export const cmsModuleSource = `
let collections = Object.freeze({});

function freeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) freeze(value[key]);
  }
  return value;
}

export function __setCmsData(data) {
  collections = freeze(data && typeof data === "object" ? data : {});
}

function items(collection) {
  if (typeof collection !== "string") throw new TypeError("cms: the collection name must be a string");
  return Object.prototype.hasOwnProperty.call(collections, collection) ? collections[collection] : [];
}

function field(item, name) {
  if (name === "slug" || name === "id" || name === "createdAt" || name === "updatedAt" || name === "publishedAt") {
    return item[name];
  }
  return item.values[name];
}

function compare(a, b, direction) {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  return (a < b ? -1 : 1) * direction;
}

/** Read-only access to the website's CMS content. */
export const cms = Object.freeze({
  /** Names of the collections. */
  collections() {
    return Object.keys(collections);
  },
  /** Every item of a collection ([] when it does not exist). */
  list(collection) {
    return items(collection).slice();
  },
  /** One item by slug, or null. */
  get(collection, slug) {
    return items(collection).find((item) => item.slug === slug) ?? null;
  },
  /**
   * Items filtered, sorted and limited. filter: an object of field → value (all must be equal) or a
   * function; sort: a field name, "-field" for descending; limit: a number.
   */
  query(collection, options = {}) {
    let list = items(collection).slice();
    const { filter, sort, limit } = options ?? {};
    if (typeof filter === "function") list = list.filter(filter);
    else if (filter && typeof filter === "object") {
      const entries = Object.entries(filter);
      list = list.filter((item) => entries.every(([key, value]) => field(item, key) === value));
    }
    if (typeof sort === "string" && sort !== "") {
      const descending = sort.startsWith("-");
      const name = descending ? sort.slice(1) : sort;
      list.sort((a, b) => compare(field(a, name), field(b, name), descending ? -1 : 1));
    }
    if (typeof limit === "number" && limit >= 0) list = list.slice(0, limit);
    return list;
  },
});

export default cms;
`;
