import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { migrationsFolder } from "../../src/db/migrations-folder.ts";
import { dialects, emptyPgDatabase, openTestDatabase, type TestDatabase } from "../support/databases.ts";
import { hexId, organization, rawQuery, user } from "./fixtures.ts";

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

/** An empty PostgreSQL database (no schema, no migrations yet), dropped after the test. */
async function emptyDatabase(options = ""): Promise<string> {
  const empty = await emptyPgDatabase(options);
  cleanups.push(empty.drop);
  return empty.url;
}

describe.skipIf(!pgUrl)("migrations [pg, concurrent first opens]", () => {
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

describe.skipIf(!pgUrl)("migrations [pg, linguistic default collation]", () => {
  it("orders user ids, members and every table's id byte-wise, as SQLite does", async () => {
    // en-US puts "a" before "B" and ignores case at first; byte order (and SQLite) puts "-" < "B" < "a".
    const url = await emptyDatabase("TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'");
    const db = await openDatabase({ url });
    opened.push(db);
    const org = organization();
    const ids = ["a", "B", "-"].map((first) => `${first}${hexId().slice(1)}`);
    await db.transaction(async (s) => {
      await s.organizations.insert(org);
      for (const id of ids) {
        await s.organizations.insertUser(user({ id }));
        await s.organizations.insertMembership({
          organizationId: org.id,
          userId: id,
          role: "content_editor",
          createdAt: 1_000,
        });
      }
    });
    const byBytes = [...ids].sort();
    expect(byBytes.map((id) => id[0])).toEqual(["-", "B", "a"]);
    const members = await db.read((s) => s.members.list(org.id, { limit: 10 }));
    expect(members.map((m) => m.userId)).toEqual(byBytes);
    // Keyset pages resume after a tie in the same order.
    const next = await db.read((s) =>
      s.members.list(org.id, { after: { createdAt: 1_000, id: byBytes[0]! }, limit: 10 }),
    );
    expect(next.map((m) => m.userId)).toEqual(byBytes.slice(1));
    const sorted = await rawQuery("pg", url, "SELECT id FROM users ORDER BY id");
    expect(sorted.map((row) => row.id)).toEqual(byBytes);
    const linguistic = await rawQuery(
      "pg",
      url,
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type = 'text' AND collation_name IS DISTINCT FROM 'C' AND (
         column_name = 'id' OR (table_name, column_name) IN (('memberships', 'user_id'), ('website_editors', 'user_id')))`,
    );
    // Every table's text id, not a list: a table added later without COLLATE "C" fails here.
    expect(linguistic).toEqual([]);
  });
});
