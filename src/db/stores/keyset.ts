import { and, asc, desc, eq, gt, lt, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { KeysetPosition } from "../../kernel/cursor.ts";

/** WHERE clause for "after this position" in a newest-first (createdAt desc, id desc) keyset. */
export function after(createdAt: SQLiteColumn, id: SQLiteColumn, position?: KeysetPosition): SQL | undefined {
  if (!position) return undefined;
  return or(lt(createdAt, position.createdAt), and(eq(createdAt, position.createdAt), lt(id, position.id)));
}

/** ORDER BY of a newest-first keyset. */
export function newestFirst(createdAt: SQLiteColumn, id: SQLiteColumn): SQL[] {
  return [desc(createdAt), desc(id)];
}

/** `after` with placeholders `at` and `id`, for prepared queries: bind `{ at: createdAt, id }`. */
export function afterPlaceholders(createdAt: SQLiteColumn, id: SQLiteColumn): SQL | undefined {
  const at = sql.placeholder("at");
  return or(lt(createdAt, at), and(eq(createdAt, at), lt(id, sql.placeholder("id"))));
}

/** WHERE clause for "after this position" in an oldest-first (createdAt asc, id asc) keyset. */
export function afterOldest(
  createdAt: SQLiteColumn,
  id: SQLiteColumn,
  position?: KeysetPosition,
): SQL | undefined {
  if (!position) return undefined;
  return or(gt(createdAt, position.createdAt), and(eq(createdAt, position.createdAt), gt(id, position.id)));
}

/** ORDER BY of an oldest-first keyset. */
export function oldestFirst(createdAt: SQLiteColumn, id: SQLiteColumn): SQL[] {
  return [asc(createdAt), asc(id)];
}
