import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { Database, OpenOptions } from "../handle.ts";
import { migrationsFolder } from "../migrations-folder.ts";
import { tables } from "../schema/sqlite.ts";
import { bindStores } from "../stores/index.ts";
import { sqliteDb } from "../types.ts";
import { connectionWrites, sqliteTableVersions } from "../write-generation.ts";
import { memoryRateLimiter } from "./memory-buckets.ts";

/**
 * SQLite through better-sqlite3 (WAL). The connection is synchronous and shared, so units of work are
 * serialized by an async mutex: a transaction's awaits never interleave with another request's queries.
 */
export function openSqlite(options: OpenOptions): Database {
  if (options.url !== ":memory:") mkdirSync(dirname(options.url), { recursive: true });
  const sqlite = new BetterSqlite3(options.url);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // A 64 MiB page cache and memory-mapped reads keep a large CMS index hot (SQLite's default cache is 2 MiB).
  sqlite.pragma("cache_size = -65536");
  sqlite.pragma("mmap_size = 268435456");
  // SQLite's lower() folds ASCII only: analytics' "contains" filters fold any letter, as on PostgreSQL.
  sqlite.function("lower_unicode", { deterministic: true }, (value: unknown) =>
    typeof value === "string" ? value.toLowerCase() : value,
  );
  // Units of work run one at a time on the one connection: the open transaction's tracker counts its writes.
  const writes = connectionWrites(sqlite);
  const db = drizzle(sqlite, { logger: { logQuery: (query) => writes.logger.logQuery(query) } });
  applyMigrations(sqlite, db);
  const stores = bindStores(sqliteDb(db), tables, "sqlite");

  let tail: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = tail.then(async () => {
      try {
        return await work();
      } finally {
        writes.end();
      }
    });
    tail = result.catch(() => undefined);
    return result;
  }

  return {
    dialect: "sqlite",
    rateLimiter: memoryRateLimiter(options.now),
    transaction: (work) =>
      exclusive(async () => {
        sqlite.exec("BEGIN IMMEDIATE");
        try {
          const result = await work(stores);
          sqlite.exec("COMMIT");
          return result;
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw error;
        }
      }),
    read: (work) => exclusive(() => work(stores)),
    peek: (work) => work(stores),
    externalVersion: sqliteTableVersions(sqlite),
    async close() {
      await exclusive(async () => sqlite.close());
    },
  };
}

/**
 * Applies the committed migrations. Some rebuild a table to change its constraints (SQLite's ALTER TABLE
 * procedure: create the new table, copy, drop the old one, rename), which needs foreign-key enforcement off:
 * dropping a rebuilt parent would otherwise cascade into its children. drizzle runs the migrations in one
 * transaction, where PRAGMA foreign_keys does nothing, so enforcement is switched off around it here; when a
 * migration ran, every reference is checked before the database is used.
 */
function applyMigrations(sqlite: BetterSqlite3.Database, db: ReturnType<typeof drizzle>): void {
  const applied = (): number => {
    const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = '__drizzle_migrations'").get();
    return exists ? (sqlite.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get() as number) : 0;
  };
  const before = applied();
  sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(db, { migrationsFolder: migrationsFolder("sqlite") });
    if (applied() !== before) {
      const broken = sqlite.pragma("foreign_key_check") as { table: string; parent: string }[];
      const [first] = broken;
      if (first)
        throw new Error(
          `${broken.length} broken references after migrating (${first.table} → ${first.parent})`,
        );
    }
  } finally {
    sqlite.pragma("foreign_keys = ON");
  }
}
