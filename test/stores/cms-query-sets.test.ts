import BetterSqlite3 from "better-sqlite3";
import { drizzle as sqliteDrizzle } from "drizzle-orm/better-sqlite3";
import { drizzle as pgDrizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { type ItemQuery, itemQueryStatement, type QueryCondition } from "../../src/db/stores/cms-query.ts";
import { chooseSets } from "../../src/db/stores/cms-query-sets.ts";
import { type Db, rawRows } from "../../src/db/types.ts";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";
import { rawQuery } from "./fixtures.ts";

const value = (key: string, numeric: boolean) => ({ kind: "value" as const, key, numeric, multi: false });

describeMatrix(
  "cms query equality sets",
  (ctx) => {
    it("gathers the most selective equality between the bounds, and pages the same rows with and without it", async () => {
      const site = await ctx.t.createWebsite(`Sets ${newId().slice(-6)}`);
      const col = await ctx.t.call("cms.collections.create", {
        websiteId: site.id,
        name: "Parts",
        fields: Object.entries({ kind: "text", tone: "text", n: "number" } as const).map(([key, type]) => ({
          key,
          name: key,
          type,
        })),
      });
      // 60 items: kind "x" on 40, tone "a" on 15; n repeats (ties by id) and is empty on some.
      const items = Array.from({ length: 60 }, (_, k) => ({
        values: { kind: k % 3 ? "x" : "y", tone: k % 4 ? "b" : "a", ...(k % 7 === 2 ? {} : { n: k % 5 }) },
      }));
      await ctx.t.call("cms.items.bulkCreate", { websiteId: site.id, collectionId: col.id, items });
      const kind: QueryCondition = { ref: value("kind", false), op: "eq", value: "x" };
      const tone: QueryCondition = { ref: value("tone", false), op: "eq", value: "a" };
      const query = (after?: unknown[]): ItemQuery => ({
        collectionId: col.id,
        status: "all",
        archived: "exclude",
        filter: { and: [{ condition: kind }, { condition: tone }] },
        sort: [{ ref: value("n", true), desc: true }],
        after,
        limit: 2,
      });
      const pool =
        ctx.dialect === "pg" ? new pg.Pool({ connectionString: ctx.t.databaseUrl, max: 1 }) : undefined;
      const file = pool ? undefined : new BetterSqlite3(ctx.t.databaseUrl, { readonly: true });
      const db = (pool ? pgDrizzle({ client: pool }) : sqliteDrizzle({ client: file! })) as unknown as Db;
      try {
        const choose = (low: number, high: number, max: number) =>
          chooseSets(db, ctx.dialect, query(), { low, high, max });
        // Bounds in units of √(2 rows read × 60 items) ≈ 11: tone (15) is 1.37, kind (40) 3.65.
        expect([...(await choose(1, 2, 100))]).toEqual([tone]);
        // tone under low, kind over high: neither (the plain statement).
        expect([...(await choose(1.5, 2, 100))]).toEqual([]);
        // Both fit: the most selective one; kind over max: tone.
        expect([...(await choose(0.1, 10, 100))]).toEqual([tone]);
        expect([...(await choose(0.1, 10, 39))]).toEqual([tone]);
        // tone under low: the next most selective that fits, kind.
        expect([...(await choose(1.5, 10, 100))]).toEqual([kind]);

        const pageOf = async (sets: Set<QueryCondition>) => {
          const seen: unknown[][] = [];
          let after: unknown[] | undefined;
          for (;;) {
            const rows = await rawRows<{ k0: unknown; k1: string }>(
              db,
              ctx.dialect,
              itemQueryStatement(ctx.dialect, query(after), sets).statement,
            );
            const keys = rows.map((r) => [r.k0 === null ? null : Number(r.k0), r.k1]);
            seen.push(...keys);
            if (keys.length < 2) return seen;
            after = keys.at(-1);
          }
        };
        const plain = await pageOf(new Set());
        expect(plain.length).toBe(10); // the items with kind "x" and tone "a"
        for (const sets of [new Set([tone]), new Set([kind]), new Set([kind, tone])]) {
          expect(await pageOf(sets)).toEqual(plain);
        }
        // The set is built once: PostgreSQL hashes it, SQLite makes it an ephemeral index after the sort walk.
        const statement = itemQueryStatement(ctx.dialect, query(), new Set([tone])).statement;
        const { sql, params } = (ctx.dialect === "pg" ? new PgDialect() : new SQLiteSyncDialect()).sqlToQuery(
          statement,
        );
        const plan = await rawQuery(
          ctx.dialect,
          ctx.t.databaseUrl,
          `EXPLAIN ${ctx.dialect === "sqlite" ? "QUERY PLAN " : ""}${sql}`,
          params,
        );
        const text = plan.map((row) => String(row.detail ?? row["QUERY PLAN"])).join("\n");
        if (ctx.dialect === "pg") expect(text).toMatch(/hashed SubPlan/);
        else {
          expect(text).toMatch(/^SEARCH s0 USING COVERING INDEX cms_item_values_num_idx/);
          expect(text).toMatch(/LIST SUBQUERY/);
          expect(text).not.toMatch(/TEMP B-TREE/);
        }
      } finally {
        await pool?.end();
        file?.close();
      }
    });

    it("counts on the query path only once: an old count is used while it is counted again", async () => {
      const site = await ctx.t.createWebsite(`Counts ${newId().slice(-6)}`);
      const col = await ctx.t.call("cms.collections.create", {
        websiteId: site.id,
        name: "Parts",
        fields: [
          { key: "tone", name: "tone", type: "text" },
          { key: "n", name: "n", type: "number" },
        ],
      });
      const add = (count: number, tone: (k: number) => string) =>
        ctx.t.call("cms.items.bulkCreate", {
          websiteId: site.id,
          collectionId: col.id,
          items: Array.from({ length: count }, (_, k) => ({ values: { tone: tone(k), n: k } })),
        });
      await add(60, (k) => (k % 4 ? "b" : "a"));
      const tone: QueryCondition = { ref: value("tone", false), op: "eq", value: "a" };
      const query: ItemQuery = {
        collectionId: col.id,
        status: "all",
        archived: "exclude",
        filter: { condition: tone },
        sort: [{ ref: value("n", true), desc: true }],
        limit: 2,
      };
      const pool =
        ctx.dialect === "pg" ? new pg.Pool({ connectionString: ctx.t.databaseUrl, max: 1 }) : undefined;
      const file = pool ? undefined : new BetterSqlite3(ctx.t.databaseUrl, { readonly: true });
      const db = (pool ? pgDrizzle({ client: pool }) : sqliteDrizzle({ client: file! })) as unknown as Db;
      // In units of √(2 × items): 15 of 60 is 1.37 (a set); after 60 more "a", 75 of 120 is 4.8 (none).
      const choose = async () => [
        ...(await chooseSets(db, ctx.dialect, query, { low: 1, high: 2, max: 100 })),
      ];
      try {
        expect(await choose()).toEqual([tone]);
        await add(60, () => "a");
        expect(await choose()).toEqual([tone]); // current counts are reused
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(Date.now() + 31_000);
        // Old counts: this query does not wait for them to be counted again, and uses them.
        expect(await choose()).toEqual([tone]);
        await vi.waitFor(async () => expect(await choose()).toEqual([]));
      } finally {
        vi.useRealTimers();
        await pool?.end();
        file?.close();
      }
    });
  },
  { server: false },
);
