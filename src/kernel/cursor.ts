import { ApiError } from "./errors.ts";

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

/** Builds the `{items, nextCursor}` envelope from a page fetched with one extra row. */
export function page<T extends { id: string }, R>(
  rows: T[],
  limit: number,
  createdAtOf: (row: T) => number,
  project: (row: T) => R,
): { items: R[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  const last = slice[slice.length - 1];
  return {
    items: slice.map(project),
    nextCursor: more && last ? encodeCursor({ createdAt: createdAtOf(last), id: last.id }) : null,
  };
}

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
