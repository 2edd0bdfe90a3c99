import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { migrationsFolder } from "../../src/db/migrations-folder.ts";
import { dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";
import { organization, rawQuery } from "./fixtures.ts";

type Dialect = "sqlite" | "pg";

/** The committed migrations of a dialect, from its journal. */
function committed(dialect: Dialect): string[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder(dialect), "meta", "_journal.json"), "utf8"));
  return journal.entries.map((entry: { tag: string }) => entry.tag);
}

/** The migrations a database has recorded as applied, in order. */
async function applied(dialect: Dialect, url: string): Promise<{ hash: string; created_at: string }[]> {
  const table = dialect === "pg" ? "drizzle.__drizzle_migrations" : "__drizzle_migrations";
  const rows = await rawQuery(dialect, url, `SELECT hash, created_at FROM ${table} ORDER BY id`);
  return rows.map((row) => ({ hash: String(row.hash), created_at: String(row.created_at) }));
}

const opened: Database[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const d of dialects) {
  describe.skipIf(!d.available)(`migrations [${d.name}]`, () => {
    async function fresh(): Promise<TestDatabase> {
      const database = await openTestDatabase(d.name);
      cleanups.push(() => database.dispose());
      return database;
    }

    it("records every committed migration on a new database", async () => {
      const { url } = await fresh();
      const rows = await applied(d.name, url);
      expect(rows).toHaveLength(committed(d.name).length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    });

    it("applies nothing new when the same database is opened again, and keeps its data", async () => {
      const { db, url } = await fresh();
      const org = organization({ name: "Survivor" });
      await db.transaction((s) => s.organizations.insert(org));
      const before = await applied(d.name, url);

      const again = await openDatabase({ url });
      opened.push(again);
      expect(await applied(d.name, url)).toStrictEqual(before);
      expect(await again.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
      // Both handles work on the same data.
      const second = organization({ name: "Second" });
      await again.transaction((s) => s.organizations.insert(second));
      expect(await db.read((s) => s.organizations.get(second.id))).toStrictEqual(second);
    });
  });
}

describe("migrations [sqlite, reopened file]", () => {
  it("keeps data and applies nothing new across a close and reopen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sitewright-migrations-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const url = join(dir, "nested", "site.db");
    const org = organization();

    const first = await openDatabase({ url });
    await first.transaction((s) => s.organizations.insert(org));
    const before = await applied("sqlite", url);
    await first.close();

    const reopened = await openDatabase({ url });
    opened.push(reopened);
    expect(await applied("sqlite", url)).toStrictEqual(before);
    expect(before).toHaveLength(committed("sqlite").length);
    expect(await reopened.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
  });
});

const pgUrl = inject("pgUrl");

describe.skipIf(!pgUrl)("migrations [pg, concurrent first opens]", () => {
  /** An empty database: no schema, no migrations yet. */
  async function emptyDatabase(): Promise<string> {
    const name = `sw_test_mig_${Math.random().toString(36).slice(2, 12)}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: pgUrl! });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  }

  it("lets several nodes open a fresh database at once: all succeed and each migration runs once", async () => {
    for (let round = 0; round < 3; round++) {
      const url = await emptyDatabase();
      const nodes = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url })));
      opened.push(...nodes);
      expect(await applied("pg", url)).toHaveLength(committed("pg").length);
      const org = organization();
      await nodes[0]!.transaction((s) => s.organizations.insert(org));
      for (const node of nodes)
        expect(await node.read((s) => s.organizations.get(org.id))).toStrictEqual(org);
      const triggers = await rawQuery(
        "pg",
        url,
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'audit_entries'::regclass AND NOT tgisinternal ORDER BY tgname",
      );
      expect(triggers.map((t) => t.tgname)).toStrictEqual([
        "audit_entries_no_change",
        "audit_entries_no_truncate",
      ]);
    }
  });
});
