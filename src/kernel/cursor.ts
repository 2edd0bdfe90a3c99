import { ApiError } from "./errors.ts";
import { freezeDeep, isFrozenDeep } from "./frozen.ts";
import { fields, listOf } from "./schemas.ts";

/** Position after the last item of a page in a newest-first keyset: creation time (ms) and id. */
export interface KeysetPosition {
  createdAt: number;
  id: string;
}

let lastPosition: KeysetPosition = { createdAt: Number.NaN, id: "" };
let lastCursor = "";

/** Encodes a keyset position as an opaque cursor string. Clients pass it back unchanged. */
export function encodeCursor(position: KeysetPosition): string {
  // The same page read again ends at the same position: its cursor is reused.
  if (position.createdAt === lastPosition.createdAt && position.id === lastPosition.id) return lastCursor;
  lastCursor = Buffer.from(JSON.stringify([position.createdAt, position.id])).toString("base64url");
  lastPosition = { createdAt: position.createdAt, id: position.id };
  return lastCursor;
}

/** Decodes a cursor from `encodeCursor`; anything else is a `validation` error naming `cursor`. */
export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && Number.isSafeInteger(value[0]) && typeof value[1] === "string") {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the validation error
  }
  throw new ApiError("validation", "cursor: not a cursor returned by this list; pass nextCursor unchanged.", {
    suggestion: "Omit cursor to start from the first page.",
  });
}

/** A row of a newest- or oldest-first keyset that names its own position (`createdAt`, then `id`). */
type KeysetRow = { createdAt: number; id: string };

/** One page of a cursor list, as tools return it. */
export interface CursorPage<R> {
  items: R[];
  nextCursor: string | null;
}

function cursorPage<T extends KeysetRow, R>(
  rows: readonly T[],
  input: { limit: number },
  project: (row: T) => R,
): CursorPage<R>;
function cursorPage<T, R>(
  rows: readonly T[],
  input: { limit: number },
  project: (row: T) => R,
  positionOf: (row: T) => KeysetPosition,
): CursorPage<R>;
function cursorPage<T, R>(
  rows: readonly T[],
  { limit }: { limit: number },
  project: (row: T) => R,
  positionOf = (row: T) => ({ createdAt: (row as KeysetRow).createdAt, id: (row as KeysetRow).id }),
): CursorPage<R> {
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const last = slice.at(-1);
  return { items: slice.map(project), nextCursor: more && last ? encodeCursor(positionOf(last)) : null };
}

/** The last page built from a deep-frozen rows array (see `reusedPage`). */
const reusedPages = new WeakMap<
  object,
  { limit: number; project: unknown; basis: unknown; page: CursorPage<unknown> }
>();

/**
 * `cursorPage` projecting each row by `project(basis, row)`. Rows a store reuses while unchanged come deep-frozen
 * (unchanged-cache.ts): for those the page is built once per rows array, limit, projection and basis, and
 * deep-frozen itself, so what derives from it (the output check, the answer's JSON text) is worked out once too.
 */
function reusedPage<T extends KeysetRow, B, R>(
  rows: readonly T[],
  input: { limit: number },
  project: (basis: B, row: T) => R,
  basis: B,
): CursorPage<R> {
  if (!isFrozenDeep(rows)) return cursorPage(rows, input, (row: T) => project(basis, row));
  const kept = reusedPages.get(rows);
  if (kept && kept.limit === input.limit && kept.project === project && kept.basis === basis) {
    return kept.page as CursorPage<R>;
  }
  const page = freezeDeep(cursorPage(rows, input, (row: T) => project(basis, row)));
  reusedPages.set(rows, { limit: input.limit, project, basis, page });
  return page;
}

/**
 * A list paged by an opaque cursor over a keyset (`createdAt`, then `id`): the input fields agents pass, the
 * output they get, what to ask the store for, and the page to answer with.
 */
export const cursorList = {
  /** The input fields `cursor` (nextCursor of the previous page) and `limit`: spread them last into the input. */
  input: () => ({ cursor: fields.cursor(), limit: fields.limit() }),
  /** The output, `{ items, nextCursor }`. */
  output: listOf,
  /** The store's page request: the position after `cursor` (a `validation` error if it is none) and one row over `limit`. */
  request(input: { cursor?: string; limit: number }): { after: KeysetPosition | undefined; limit: number } {
    return { after: input.cursor ? decodeCursor(input.cursor) : undefined, limit: input.limit + 1 };
  },
  /**
   * The page of rows fetched with `request`: the first `limit` rows projected, and a cursor after the last when
   * more follow. `positionOf` names a row's position when it is not the row's own `createdAt` and `id`.
   */
  page: cursorPage,
  /** `page` with `project(basis, row)`, built once while the store reuses the same rows (see `reusedPage`). */
  reusedPage,
};

/**
 * Encodes a keyset position of any sort order (the sort key values, then the id) as an opaque cursor; `tag`
 * names the order, so a cursor is refused by a query with another order.
 */
export function encodeKeyset(values: readonly unknown[], tag: string): string {
  return Buffer.from(JSON.stringify({ t: tag, k: values })).toString("base64url");
}

/** Decodes a cursor from `encodeKeyset` for the same order (`tag`, `length` values), else a `validation` error. */
export function decodeKeyset(cursor: string, tag: string, length: number): unknown[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const keys = value?.k;
    if (
      value?.t === tag &&
      Array.isArray(keys) &&
      keys.length === length &&
      keys.every((k: unknown) => k === null || typeof k === "string" || Number.isFinite(k))
    ) {
      return keys;
    }
  } catch {
    // fall through to the validation error
  }
  throw new ApiError(
    "validation",
    "cursor: not a cursor of this query; pass nextCursor unchanged with the same sort and search.",
    { suggestion: "Omit cursor to start from the first page." },
  );
}
