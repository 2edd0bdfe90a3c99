// Databases at an older schema, for migration tests: an empty SQLite file or PostgreSQL database, migrated up to
// (not including) a committed migration, with stores bound to it. Everything is removed after each test.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { drizzle as sqliteDrizzle } from "drizzle-orm/better-sqlite3";
import { migrate as sqliteMigrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as pgDrizzle } from "drizzle-orm/node-postgres";
import { migrate as pgMigrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterEach, expect } from "vitest";
import { migrationsFolder } from "../../src/db/migrations-folder.ts";
import * as pgSchema from "../../src/db/schema/pg.ts";
import * as sqliteSchema from "../../src/db/schema/sqlite.ts";
import { bindStores, type Stores } from "../../src/db/stores/index.ts";
import { pgDb, pgTables } from "../../src/db/types.ts";
import { type Dialect, emptyPgDatabase } from "./databases.ts";

/** Registers the clean-up after each test and returns the helpers (call once, at the top of a test file). */
export function migrationFixtures() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A new, empty database: a SQLite file or a PostgreSQL database. */
  async function emptyDatabase(dialect: Dialect): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), "sitewright-migrated-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    if (dialect === "sqlite") return join(dir, "site.db");
    const empty = await emptyPgDatabase();
    cleanups.push(empty.drop);
    return empty.url;
  }

  /** Applies the committed migrations before `tag` and returns stores bound to that (older) schema. */
  async function migratedBefore(dialect: Dialect, url: string, tag: string): Promise<Stores> {
    const folder = mkdtempSync(join(tmpdir(), "sitewright-migrations-"));
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    cpSync(migrationsFolder(dialect), folder, { recursive: true });
    const journalPath = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8"));
    const index = journal.entries.findIndex((entry: { tag: string }) => entry.tag === tag);
    expect(index).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, index);
    writeFileSync(journalPath, JSON.stringify(journal));
    if (dialect === "sqlite") {
      const sqlite = new BetterSqlite3(url);
      cleanups.push(async () => {
        sqlite.close();
      });
      const db = sqliteDrizzle(sqlite);
      sqliteMigrate(db, { migrationsFolder: folder });
      return bindStores(db, sqliteSchema.tables, "sqlite");
    }
    const pool = new pg.Pool({ connectionString: url });
    cleanups.push(() => pool.end());
    const db = pgDrizzle(pool);
    await pgMigrate(db, { migrationsFolder: folder });
    return bindStores(pgDb(db), pgTables(pgSchema.tables), "pg");
  }

  return { emptyDatabase, migratedBefore };
}
