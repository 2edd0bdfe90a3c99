// Audit entries are append-only at the database itself: the raw connections below bypass every store.
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { expect, it } from "vitest";
import type { AuditEntryRecord } from "../../src/db/stores/audit.ts";
import { auditEntry, describeStores, seedOrganization } from "./fixtures.ts";

describeStores("audit immutability", (ctx) => {
  async function seed(): Promise<{ organizationId: string; entries: AuditEntryRecord[] }> {
    const org = await seedOrganization(ctx.db);
    const entries = [auditEntry(org.id, { at: 2_000 }), auditEntry(org.id, { at: 1_000 })];
    await ctx.db.transaction(async (s) => {
      for (const entry of entries) await s.audit.append(entry);
    });
    return { organizationId: org.id, entries };
  }

  const listed = (organizationId: string) => ctx.db.read((s) => s.audit.list({ organizationId, limit: 100 }));

  if (ctx.dialect === "sqlite") {
    it("aborts UPDATE and DELETE of audit entries on a raw SQLite connection", async () => {
      const { organizationId, entries } = await seed();
      const sqlite = new BetterSqlite3(ctx.url);
      try {
        expect(() => sqlite.prepare("UPDATE audit_entries SET outcome = 'tampered'").run()).toThrow(
          /audit entries are immutable/,
        );
        expect(() =>
          sqlite.prepare("UPDATE audit_entries SET at = 0 WHERE id = ?").run(entries[0]!.id),
        ).toThrow(/audit entries are immutable/);
        expect(() => sqlite.prepare("DELETE FROM audit_entries").run()).toThrow(
          /audit entries are immutable/,
        );
        expect(() => sqlite.prepare("DELETE FROM audit_entries WHERE id = ?").run(entries[1]!.id)).toThrow(
          /audit entries are immutable/,
        );
        // REPLACE fires no DELETE trigger in SQLite: the insert trigger refuses any existing id.
        for (const statement of ["INSERT OR REPLACE INTO", "REPLACE INTO"]) {
          expect(() =>
            sqlite
              .prepare(`${statement} audit_entries SELECT id, organization_id, 0, actor_type, actor_id, actor_label,
                operation_id, transport, request_id, website_id, target_type, target_id, 'tampered'
                FROM audit_entries WHERE id = ?`)
              .run(entries[0]!.id),
          ).toThrow(/audit entries are immutable/);
        }
        // Inside an explicit transaction too: nothing of it survives.
        expect(() =>
          sqlite.transaction(() => {
            sqlite.prepare("DELETE FROM audit_entries WHERE id = ?").run(entries[0]!.id);
          })(),
        ).toThrow(/audit entries are immutable/);
        const rows = sqlite.prepare("SELECT COUNT(*) AS n FROM audit_entries").get() as { n: number };
        expect(rows.n).toBe(2);
      } finally {
        sqlite.close();
      }
      expect(await listed(organizationId)).toStrictEqual(entries);
    });
  }

  if (ctx.dialect === "pg") {
    it("rejects UPDATE, DELETE, TRUNCATE and upserts of audit entries on a raw PostgreSQL connection", async () => {
      const { organizationId, entries } = await seed();
      const client = new pg.Client({ connectionString: ctx.url });
      await client.connect();
      try {
        const refused = /audit entries are immutable/;
        await expect(client.query("UPDATE audit_entries SET outcome = 'tampered'")).rejects.toThrow(refused);
        await expect(
          client.query("UPDATE audit_entries SET at = 0 WHERE id = $1", [entries[0]!.id]),
        ).rejects.toThrow(refused);
        await expect(client.query("DELETE FROM audit_entries")).rejects.toThrow(refused);
        await expect(
          client.query("DELETE FROM audit_entries WHERE id = $1", [entries[1]!.id]),
        ).rejects.toThrow(refused);
        await expect(client.query("TRUNCATE audit_entries")).rejects.toThrow(refused);
        await expect(
          client.query(
            `INSERT INTO audit_entries SELECT * FROM audit_entries WHERE id = $1
             ON CONFLICT (id) DO UPDATE SET outcome = 'tampered'`,
            [entries[0]!.id],
          ),
        ).rejects.toThrow(refused);
        const { rows } = await client.query(
          "SELECT COUNT(*)::int AS n FROM audit_entries WHERE outcome = 'success'",
        );
        expect(rows[0].n).toBe(2);
      } finally {
        await client.end();
      }
      expect(await listed(organizationId)).toStrictEqual(entries);
    });
  }

  it("still accepts new entries after a refused change", async () => {
    const { organizationId, entries } = await seed();
    const sql = "DELETE FROM audit_entries";
    if (ctx.dialect === "sqlite") {
      const sqlite = new BetterSqlite3(ctx.url);
      try {
        expect(() => sqlite.prepare(sql).run()).toThrow();
      } finally {
        sqlite.close();
      }
    } else {
      const client = new pg.Client({ connectionString: ctx.url });
      await client.connect();
      await expect(client.query(sql)).rejects.toThrow();
      await client.end();
    }
    const later = auditEntry(organizationId, { at: 3_000 });
    await ctx.db.transaction((s) => s.audit.append(later));
    expect(await listed(organizationId)).toStrictEqual([later, ...entries]);
  });
});
