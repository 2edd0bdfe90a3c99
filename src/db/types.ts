import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type * as schema from "./schema/sqlite.ts";

/**
 * The drizzle handle stores are written against. Both dialects' schemas have identical table and column
 * names and value types, and stores use only the query-builder surface the two share (awaited queries,
 * `.returning()`, `onConflict*`), so one store implementation serves SQLite and PostgreSQL.
 */
export type Db = BetterSQLite3Database<typeof schema>;
export type Tables = typeof schema;
