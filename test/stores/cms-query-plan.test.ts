import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { expect, it } from "vitest";
import { type ItemQuery, itemQueryStatement } from "../../src/db/stores/cms-query.ts";
import { describeStores, rawQuery } from "./fixtures.ts";

const value = (key: string, numeric: boolean) => ({ kind: "value" as const, key, numeric, multi: false });

/** The page of `npm run bench:cms`: two equalities and a range, sorted by the range's field, descending. */
const page = (limit: number): ItemQuery => ({
  collectionId: "c1",
  status: "all",
  archived: "exclude",
  filter: {
    and: [
      { condition: { ref: value("category", false), op: "eq", value: "cooking" } },
      { condition: { ref: value("inStock", true), op: "eq", value: 1 } },
      { condition: { ref: value("price", true), op: "gte", value: 100 } },
    ],
  },
  sort: [{ ref: value("price", true), desc: true }],
  limit,
});

describeStores(
  "cms query plans",
  (ctx) => {
    it("walks the sort index and stops at the page (no sort of every item), for every page size", async () => {
      for (const limit of [2, 11, 101]) {
        const { sql, params } = new SQLiteSyncDialect().sqlToQuery(
          itemQueryStatement("sqlite", page(limit)).statement,
        );
        const plan = await rawQuery(ctx.dialect, ctx.url, `EXPLAIN QUERY PLAN ${sql}`, params);
        const steps = plan.map((row) => String(row.detail));
        expect(steps[0], steps.join("\n")).toMatch(/^SEARCH s0 USING COVERING INDEX cms_item_values_num_idx/);
        expect(steps.join("\n")).not.toMatch(/TEMP B-TREE/);
      }
    });
  },
  { dialects: ["sqlite"] },
);
