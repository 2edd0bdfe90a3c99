import { expect, it } from "vitest";
import type { AuditEntryRecord, AuditFilter } from "../../src/db/stores/audit.ts";
import type { KeysetPosition } from "../../src/kernel/cursor.ts";
import { auditEntry, describeStores, newestFirst, seedOrganization } from "./fixtures.ts";

describeStores("audit store", (ctx) => {
  const append = (...entries: AuditEntryRecord[]) =>
    ctx.db.transaction(async (s) => {
      for (const entry of entries) await s.audit.append(entry);
    });
  const list = (filter: Omit<AuditFilter, "limit"> & { limit?: number }) =>
    ctx.db.read((s) => s.audit.list({ limit: 1_000, ...filter }));
  const ids = (entries: AuditEntryRecord[]) => entries.map((e) => e.id);

  /** Entries of one organization that differ along every filterable dimension, plus another organization's. */
  async function seed() {
    const org = await seedOrganization(ctx.db);
    const other = await seedOrganization(ctx.db);
    const e = {
      a: auditEntry(org.id, { at: 1_000, actorId: "alice", operationId: "websites.create", websiteId: "w1" }),
      b: auditEntry(org.id, { at: 2_000, actorId: "bob", operationId: "websites.update", websiteId: "w1" }),
      c: auditEntry(org.id, { at: 3_000, actorId: "alice", operationId: "websites.update", websiteId: "w2" }),
      d: auditEntry(org.id, { at: 4_000, actorId: "alice", operationId: "apiKeys.create", websiteId: null }),
      e: auditEntry(org.id, { at: 5_000, actorId: "bob", operationId: "websites.create", websiteId: "w2" }),
      foreign: auditEntry(other.id, {
        at: 3_000,
        actorId: "alice",
        operationId: "websites.update",
        websiteId: "w1",
      }),
    };
    await append(e.c, e.a, e.foreign, e.e, e.b, e.d);
    return { org, e };
  }

  it("returns appended entries exactly, newest first, scoped to the organization", async () => {
    const { org, e } = await seed();
    const full = auditEntry(org.id, {
      at: 1_700_000_000_999,
      actorType: "user",
      actorLabel: "Ada <ada@example.test>",
      transport: "mcp",
      requestId: "req_42",
      websiteId: "w9",
      targetType: "api_key",
      targetId: "key_9",
      outcome: "conflict",
    });
    await append(full);
    expect(await list({ organizationId: org.id })).toStrictEqual([full, e.e, e.d, e.c, e.b, e.a]);
    expect(await list({ organizationId: "missing" })).toStrictEqual([]);
  });

  it("filters by actor, operation and website, alone and combined", async () => {
    const { org, e } = await seed();
    expect(ids(await list({ organizationId: org.id, actorId: "alice" }))).toStrictEqual(ids([e.d, e.c, e.a]));
    expect(ids(await list({ organizationId: org.id, operationId: "websites.update" }))).toStrictEqual(
      ids([e.c, e.b]),
    );
    expect(ids(await list({ organizationId: org.id, websiteId: "w1" }))).toStrictEqual(ids([e.b, e.a]));
    expect(ids(await list({ organizationId: org.id, websiteId: "w2", actorId: "bob" }))).toStrictEqual(
      ids([e.e]),
    );
    expect(
      ids(
        await list({
          organizationId: org.id,
          actorId: "alice",
          operationId: "websites.update",
          websiteId: "w2",
        }),
      ),
    ).toStrictEqual(ids([e.c]));
    expect(await list({ organizationId: org.id, actorId: "carol" })).toStrictEqual([]);
  });

  it("bounds time with `from` inclusive and `to` exclusive", async () => {
    const { org, e } = await seed();
    expect(ids(await list({ organizationId: org.id, from: 2_000 }))).toStrictEqual(ids([e.e, e.d, e.c, e.b]));
    expect(ids(await list({ organizationId: org.id, to: 2_000 }))).toStrictEqual(ids([e.a]));
    expect(ids(await list({ organizationId: org.id, from: 2_000, to: 4_000 }))).toStrictEqual(
      ids([e.c, e.b]),
    );
    expect(ids(await list({ organizationId: org.id, from: 2_001, to: 4_001 }))).toStrictEqual(
      ids([e.d, e.c]),
    );
    expect(await list({ organizationId: org.id, from: 3_000, to: 3_000 })).toStrictEqual([]);
    expect(ids(await list({ organizationId: org.id, from: 1_000, to: 5_001, actorId: "bob" }))).toStrictEqual(
      ids([e.e, e.b]),
    );
  });

  it("pages newest first across ties on `at` without duplicates or gaps, also under a filter", async () => {
    const org = await seedOrganization(ctx.db);
    const entries = Array.from({ length: 17 }, (_, i) =>
      auditEntry(org.id, { at: 90_000 + (i % 4), actorId: i % 2 ? "odd" : "even" }),
    );
    await append(...entries);
    for (const actorId of [undefined, "even"]) {
      const expected = ids(
        newestFirst(
          entries.filter((x) => !actorId || x.actorId === actorId),
          (x) => x.at,
        ),
      );
      for (const limit of [1, 3, 5]) {
        const seen: AuditEntryRecord[] = [];
        let after: KeysetPosition | undefined;
        for (let pages = 0; pages < 30; pages++) {
          const rows = await list({ organizationId: org.id, actorId, after, limit: limit + 1 });
          const pageRows = rows.slice(0, limit);
          seen.push(...pageRows);
          if (rows.length <= limit) break;
          const last = pageRows[pageRows.length - 1]!;
          after = { createdAt: last.at, id: last.id };
        }
        expect(ids(seen)).toStrictEqual(expected);
      }
    }
  });

  it("combines a keyset position with a time window", async () => {
    const org = await seedOrganization(ctx.db);
    const x = auditEntry(org.id, { id: "x", at: 10 });
    const y1 = auditEntry(org.id, { id: "y1", at: 20 });
    const y2 = auditEntry(org.id, { id: "y2", at: 20 });
    const z = auditEntry(org.id, { id: "z", at: 30 });
    await append(x, y1, y2, z);
    expect(
      ids(await list({ organizationId: org.id, to: 30, after: { createdAt: 20, id: "y2" } })),
    ).toStrictEqual(["y1", "x"]);
    expect(
      ids(await list({ organizationId: org.id, from: 20, after: { createdAt: 20, id: "y2" } })),
    ).toStrictEqual(["y1"]);
  });

  it("refuses a second entry with the same id and keeps the first", async () => {
    const org = await seedOrganization(ctx.db);
    const entry = auditEntry(org.id, { id: "fixed", outcome: "success" });
    await append(entry);
    await expect(append({ ...entry, outcome: "forbidden" })).rejects.toThrow();
    expect(await list({ organizationId: org.id })).toStrictEqual([entry]);
  });
});
