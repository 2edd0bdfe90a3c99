import type { SQL } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { PgTables, Tables } from "./schema/tables.ts";

export type { Tables };

/** The SQL dialect of a database (`Database.dialect`); stores receive it and never guess it from the driver. */
export type Dialect = "sqlite" | "pg";

/**
 * The drizzle handle stores are written against: the query builder both dialects share (select, insert, update,
 * delete with `.returning()` and `onConflict*`, `$count`, prepared queries), always awaited. Drizzle has no
 * dialect-neutral database type (each dialect's builder accepts only its own table classes), so the surface is
 * typed through SQLite's; both dialects' tables come from one definition (schema/tables.ts) with equal columns and
 * value types. Driver-specific methods (`all`, `run`, `execute`) are left out: raw SQL goes through
 * `rawRows`/`rawRun`, which take the dialect.
 */
export type Db = Pick<
  BetterSQLite3Database,
  "select" | "selectDistinct" | "insert" | "update" | "delete" | "$count" | "$with" | "with"
>;

/** The SQLite handle as stores see it (exactly its own query builder). */
export const sqliteDb = (db: BetterSQLite3Database): Db => db;

/**
 * The PostgreSQL handle (or transaction) and its tables as stores see them: the one place where PostgreSQL's
 * builder enters the shared surface. The statements stores build are the same SQL on both; what differs (null
 * order, function names) the stores decide from the dialect they are given.
 */
export const pgDb = (db: NodePgDatabase<Record<string, unknown>>): Db => db as unknown as Db;

/** The PostgreSQL tables as stores see them: built from the same definitions as SQLite's (schema/tables.ts). */
export const pgTables = (tables: PgTables): Tables => tables as unknown as Tables;

interface SqliteRaw {
  all(query: SQL): unknown[];
  run(query: SQL): unknown;
}
interface PgRaw {
  execute(query: SQL): Promise<{ rows: unknown[] }>;
}

/** Runs a raw statement and returns its rows. */
export async function rawRows<T>(db: Db, dialect: Dialect, query: SQL): Promise<T[]> {
  if (dialect === "pg") return (await (db as unknown as PgRaw).execute(query)).rows as T[];
  return (db as unknown as SqliteRaw).all(query) as T[];
}

/**
 * Whether `db` can still run statements once the unit of work that handed it over has ended (for work done after a
 * query returns): SQLite's one connection lives as long as the database; on PostgreSQL only the pool's handle does
 * (a transaction's client goes back to the pool with it).
 */
export const outlivesUnitOfWork = (db: Db, dialect: Dialect) =>
  dialect === "sqlite" || (db as unknown as { $client?: unknown }).$client instanceof pg.Pool;

/** Runs a raw statement that returns no rows. */
export async function rawRun(db: Db, dialect: Dialect, query: SQL): Promise<void> {
  if (dialect === "pg") await (db as unknown as PgRaw).execute(query);
  else (db as unknown as SqliteRaw).run(query);
}
