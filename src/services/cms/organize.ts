// Organizing items: archive / unarchive and manual order (the `position` column).
import type { CmsCollectionRecord, CmsItemRecord } from "../../db/stores/cms.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";

/** The answer to a write that passed a stale `version`: nothing was written; read the item again. */
export const versionConflict = (item: CmsItemRecord) =>
  new ApiError(
    "conflict",
    `Item '${item.id}' changed since version ${item.version} was read; nothing was written.`,
    {
      suggestion:
        "Read the item again with {{cms.items.get}}, reapply your change, and pass its current version.",
    },
  );

/**
 * Gap between neighbouring positions when items are created or renumbered: moving an item between two
 * neighbours usually writes only the moved items; the collection is renumbered when a gap runs out.
 */
export const POSITION_STEP = 1024;
/** Positions stay within ±2^30 (the column is a 32-bit integer on PostgreSQL); beyond, the collection is renumbered. */
export const POSITION_LIMIT = 2 ** 30;

/** The position of a new item of the collection: after every other item (manual order = creation order by default). */
export async function nextItemPosition(stores: Stores, collectionId: string): Promise<number> {
  const max = await stores.cms.maxItemPosition(collectionId);
  if (max === undefined) return POSITION_STEP;
  if (max + POSITION_STEP <= POSITION_LIMIT) return max + POSITION_STEP;
  const order = await stores.cms.listItemOrder(collectionId);
  await renumber(stores, order, order);
  return (order.length + 1) * POSITION_STEP;
}

/** Archives or unarchives an item (its values and status stay); unchanged when it already is. */
export async function setItemArchived(
  stores: Stores,
  item: CmsItemRecord,
  archived: boolean,
  now: number,
): Promise<CmsItemRecord> {
  if (item.archived === archived) return item;
  const updated = await stores.cms.updateItem(item.id, { archived, updatedAt: now }, item.version);
  if (!updated) throw versionConflict(item);
  return updated;
}

export interface ReorderInput {
  itemIds: readonly string[];
  before?: string | undefined;
  after?: string | undefined;
  at?: "start" | "end" | undefined;
}

/**
 * Moves `itemIds`, in that order, as one consecutive block: just before `before`, just after `after`, or to the
 * start (default) or end of the collection. Other items keep their relative order. Returns the moved items'
 * new positions in order.
 */
export async function reorderItems(
  stores: Stores,
  collection: CmsCollectionRecord,
  input: ReorderInput,
): Promise<{ id: string; slug: string; position: number }[]> {
  const anchors = [input.before, input.after, input.at].filter((value) => value !== undefined);
  if (anchors.length > 1) {
    throw new ApiError("validation", "before, after, at: give at most one of them (default: at start).");
  }
  if (new Set(input.itemIds).size !== input.itemIds.length) {
    throw new ApiError("validation", "itemIds: must not repeat an id.");
  }
  const order = await stores.cms.listItemOrder(collection.id);
  const inCollection = new Set(order.map((row) => row.id));
  for (const id of input.itemIds) if (!inCollection.has(id)) throw itemNotFound(id, "itemIds");
  const anchor = input.before ?? input.after;
  const anchorName = input.before !== undefined ? "before" : "after";
  if (anchor !== undefined) {
    if (!inCollection.has(anchor)) throw itemNotFound(anchor, anchorName);
    if (input.itemIds.includes(anchor)) {
      throw new ApiError(
        "validation",
        `${anchorName}: item '${anchor}' is one of itemIds; anchor the block on an item that does not move.`,
      );
    }
  }

  const moving = new Set(input.itemIds);
  const rest = order.filter((row) => !moving.has(row.id));
  let index: number;
  if (anchor !== undefined) {
    index = rest.findIndex((row) => row.id === anchor) + (input.before !== undefined ? 0 : 1);
  } else index = input.at === "end" ? rest.length : 0;

  const count = input.itemIds.length;
  const low = rest[index - 1]?.position;
  const high = rest[index]?.position;
  let positions: number[] | undefined;
  if (low === undefined && high === undefined) {
    positions = input.itemIds.map((_, k) => (k + 1) * POSITION_STEP);
  } else if (low === undefined) {
    positions = input.itemIds.map((_, k) => high! - (count - k) * POSITION_STEP);
  } else if (high === undefined) {
    positions = input.itemIds.map((_, k) => low + (k + 1) * POSITION_STEP);
  } else if (high - low > count) {
    positions = input.itemIds.map((_, k) => low + Math.floor(((high - low) * (k + 1)) / (count + 1)));
  }
  if (positions?.every((p) => Math.abs(p) <= POSITION_LIMIT)) {
    await stores.cms.setItemPositions(input.itemIds.map((id, k) => ({ id, position: positions![k]! })));
  } else {
    // No room between the neighbours: renumber the whole collection in the new order.
    const block = input.itemIds.map((id) => ({ id, position: Number.NaN }));
    const target = [...rest.slice(0, index), ...block, ...rest.slice(index)];
    await renumber(stores, order, target);
    positions = block.map((row) => row.position);
  }
  const records = new Map((await stores.cms.getItems(input.itemIds)).map((row) => [row.id, row]));
  return input.itemIds.map((id, k) => ({ id, slug: records.get(id)?.slug ?? "", position: positions![k]! }));
}

/** Gives `target` (a permutation of `current`) positions STEP, 2·STEP, …; writes only the ones that change. */
async function renumber(
  stores: Stores,
  current: readonly { id: string; position: number }[],
  target: { id: string; position: number }[],
): Promise<void> {
  const before = new Map(current.map((row) => [row.id, row.position]));
  const updates: { id: string; position: number }[] = [];
  target.forEach((row, n) => {
    row.position = (n + 1) * POSITION_STEP;
    if (before.get(row.id) !== row.position) updates.push({ id: row.id, position: row.position });
  });
  await stores.cms.setItemPositions(updates);
}

const itemNotFound = (id: string, field: string) =>
  new ApiError("not_found", `${field}: item '${id}' was not found in this collection.`, {
    suggestion: "List the collection's items with {{cms.items.list}} and pass their ids.",
  });
