import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type Database, type OpenOptions, openDatabase } from "../../src/db/database.ts";
import { newId } from "../../src/kernel/ids.ts";

export type Dialect = "sqlite" | "pg";

export interface TestDatabase {
  db: Database;
  url: string;
  /** A temporary folder of this database's test, removed on dispose (blobs and other files go here). */
  dir: string;
  /** Closes the handle and removes the database. */
  dispose(): Promise<void>;
}

const pgUrl = inject("pgUrl");

/**
 * Dialects to run a suite on: SQLite always; PostgreSQL when reachable (CI makes it mandatory).
 * `SITEWRIGHT_TEST_DIALECTS=sqlite` narrows a local run to SQLite (`npm run test:quick`); CI never sets it.
 */
const only = process.env.SITEWRIGHT_TEST_DIALECTS?.split(",");
export const dialects: { name: Dialect; available: boolean }[] = (
  [
    { name: "sqlite", available: true },
    { name: "pg", available: pgUrl !== null },
  ] as const
)
  .filter((d) => !only || only.includes(d.name))
  .map((d) => ({ ...d }));

/** A fresh, migrated database: a SQLite file in a temp dir, or a new PostgreSQL database. */
export async function openTestDatabase(
  dialect: Dialect,
  options: Partial<OpenOptions> = {},
): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-test-"));
  if (dialect === "sqlite") {
    const url = join(dir, "test.db");
    const db = await openDatabase({ ...options, url });
    return {
      db,
      url,
      dir,
      dispose: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const empty = await emptyPgDatabase();
  const db = await openDatabase({ ...options, url: empty.url });
  return {
    db,
    url: empty.url,
    dir,
    dispose: async () => {
      await db.close();
      await empty.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A new PostgreSQL database with no schema and no migrations yet, made with `options` (of CREATE DATABASE, such
 * as a template and a collation): its URL, and `drop` to remove it.
 */
export async function emptyPgDatabase(options = ""): Promise<{ url: string; drop(): Promise<void> }> {
  if (!pgUrl) throw new Error("PostgreSQL is not available");
  const name = `sw_test_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;
  await adminQuery(`CREATE DATABASE ${name} ${options}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: pgUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
