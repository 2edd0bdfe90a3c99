import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { newId } from "../../src/kernel/ids.ts";
import { tools } from "../../tools/index.ts";
import { dialects } from "../support/databases.ts";
import { describeMatrix } from "../support/matrix.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";

/**
 * The pinned query semantics (docs/cms.md "Querying items"), literal expectations run on SQLite and PostgreSQL:
 * case rules, null ordering, numbers vs text, dates, multi-valued fields, JSON, search ranking, cursors over
 * three keys, archived items, included references and database-enforced unique values.
 */
describeMatrix(
  "cms query conformance",
  (ctx) => {
    const post = (path: string, body: Record<string, unknown>) =>
      ctx.request("POST", `/cms${path}`, { body });
    const long = (tail: string) => `${"x".repeat(120)}${tail}`;

    async function seed() {
      const site = await ctx.t.createWebsite(`Conf ${newId().slice(-6)}`);
      const people = await post("/collections", {
        websiteId: site.id,
        name: "People",
        fields: [{ key: "name", name: "Name", type: "text" }],
      });
      const ppl = await post(`/collections/${people.body.id}/items/bulk-create`, {
        websiteId: site.id,
        items: [{ values: { name: "Ada" } }, { values: { name: "Grace" } }],
      });
      const [ada, grace] = ppl.body.results.map((r: { item: { id: string } }) => r.item.id);
      const docs = await post("/collections", {
        websiteId: site.id,
        name: "Docs",
        fields: [
          { key: "title", name: "Title", type: "text" },
          { key: "body", name: "Body", type: "longText" },
          { key: "code", name: "Code", type: "text" },
          { key: "n", name: "N", type: "number" },
          { key: "on", name: "On", type: "date" },
          { key: "at", name: "At", type: "dateTime" },
          { key: "flag", name: "Flag", type: "boolean" },
          { key: "tags", name: "Tags", type: "multiOption", validValues: ["a", "b", "c"] },
          { key: "meta", name: "Meta", type: "json" },
          { key: "author", name: "Author", type: "reference", referenceCollectionId: people.body.id },
          {
            key: "editors",
            name: "Editors",
            type: "references",
            referenceCollectionId: people.body.id,
          },
          { key: "sku", name: "SKU", type: "text", unique: true },
        ],
      });
      expect(docs.status, JSON.stringify(docs.body)).toBe(200);
      const rows = [
        {
          title: "Garden guide",
          body: "Grow roses. Roses need sun.",
          code: "10",
          n: 10,
          on: "2026-02-01",
          at: "2026-02-01T10:00:00+02:00",
          flag: true,
          tags: ["a", "b"],
          meta: { b: 1, a: [1, 2] },
          author: ada,
          editors: [ada, grace],
          sku: "S1",
        },
        { title: "ÉLAN vital", body: "garden notes", code: "2", n: 2, flag: false, tags: ["c"], sku: "S2" },
        { title: "rose", body: long("b"), code: "b", n: -1.5, on: "2026-01-15", meta: { a: [1, 2], b: 1 } },
        { title: "Zed", body: long("a"), code: "B", author: grace },
      ];
      const made = await post(`/collections/${docs.body.id}/items/bulk-create`, {
        websiteId: site.id,
        items: rows.map((values) => ({ values })),
      });
      expect(made.body.succeeded, JSON.stringify(made.body)).toBe(4);
      const ids = made.body.results.map((r: { item: { id: string } }) => r.item.id as string);
      return { websiteId: site.id, id: docs.body.id as string, ids, ada, grace };
    }
    type Seeded = Awaited<ReturnType<typeof seed>>;
    const query = (c: Seeded, body: Record<string, unknown>) =>
      post(`/collections/${c.id}/items/query`, { websiteId: c.websiteId, ...body });
    const titles = (r: { body: { items: { values: { title: string } }[] } }) =>
      r.body.items.map((i) => i.values.title);
    const where = async (c: Seeded, filter: unknown) => {
      const r = await query(c, { filter });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return titles(r);
    };

    it("pins case rules, numbers vs text, dates, multi-valued fields and JSON", async () => {
      const c = await seed();
      // eq/in are exact (case-sensitive); contains/startsWith ignore case (Unicode lower-casing).
      expect(await where(c, { field: "title", op: "eq", value: "rose" })).toEqual(["rose"]);
      expect(await where(c, { field: "title", op: "eq", value: "Rose" })).toEqual([]);
      expect(await where(c, { field: "title", op: "contains", value: "élan" })).toEqual(["ÉLAN vital"]);
      expect(await where(c, { field: "title", op: "startsWith", value: "GARD" })).toEqual(["Garden guide"]);
      expect(await where(c, { field: "code", op: "in", value: ["b", "2"] })).toEqual(["ÉLAN vital", "rose"]);
      // Numbers compare numerically, text by code point ("10" < "2", "B" < "b").
      expect(await where(c, { field: "n", op: "lt", value: 3 })).toEqual(["ÉLAN vital", "rose"]);
      expect(await where(c, { field: "code", op: "lt", value: "2" })).toEqual(["Garden guide"]);
      expect(await where(c, { field: "code", op: "gte", value: "B" })).toEqual(["rose", "Zed"]);
      // Empty values: ne and notIn include them, comparisons never match them.
      expect(await where(c, { field: "n", op: "ne", value: 2 })).toEqual(["Garden guide", "rose", "Zed"]);
      expect(await where(c, { field: "n", op: "notIn", value: [10, 2] })).toEqual(["rose", "Zed"]);
      expect(await where(c, { field: "n", op: "isNull", value: true })).toEqual(["Zed"]);
      // Dates compare as text (YYYY-MM-DD); dateTime is stored as UTC ISO; createdAt takes ISO operands.
      expect(await where(c, { field: "on", op: "lt", value: "2026-02-01" })).toEqual(["rose"]);
      expect(await where(c, { field: "at", op: "eq", value: "2026-02-01T08:00:00.000Z" })).toEqual([
        "Garden guide",
      ]);
      expect(await where(c, { field: "createdAt", op: "lt", value: "2000-01-01T00:00:00Z" })).toEqual([]);
      expect(await where(c, { field: "flag", op: "eq", value: false })).toEqual(["ÉLAN vital"]);
      // Multi-valued: contains means "has the member"; isNull means "has none".
      expect(await where(c, { field: "tags", op: "contains", value: "b" })).toEqual(["Garden guide"]);
      expect(await where(c, { field: "tags", op: "isNull", value: true })).toEqual(["rose", "Zed"]);
      expect(await where(c, { field: "editors", op: "contains", value: c.grace })).toEqual(["Garden guide"]);
      // JSON values are equal when their canonical JSON (sorted keys) is.
      expect(await where(c, { field: "meta", op: "eq", value: { a: [1, 2], b: 1 } })).toEqual([
        "Garden guide",
        "rose",
      ]);
      // Long text: the indexed prefix ties, the whole value decides.
      expect(await where(c, { field: "body", op: "gt", value: long("a") })).toEqual(["rose"]);
    });

    it("filters on the leading sort field exactly as on any other field", async () => {
      const c = await seed();
      const conditions = [
        { field: "n", op: "gte", value: 2 },
        { field: "n", op: "lt", value: 3 },
        { field: "n", op: "ne", value: 2 },
        { field: "n", op: "in", value: [2, -1.5] },
        { field: "n", op: "notIn", value: [10, 2] },
        { field: "n", op: "isNull", value: true },
        { field: "n", op: "isNull", value: false },
        { field: "code", op: "eq", value: "b" },
        { field: "code", op: "gt", value: "2" },
        { field: "code", op: "startsWith", value: "1" },
        { field: "code", op: "contains", value: "B" },
      ];
      for (const filter of conditions) {
        const unsorted = (await where(c, filter)).sort();
        for (const direction of ["asc", "desc"]) {
          const r = await query(c, { filter, sort: [{ field: filter.field, direction }] });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(titles(r).sort(), `${JSON.stringify(filter)} ${direction}`).toEqual(unsorted);
        }
      }
    });

    it("sorted by a field, filters on other fields find the same items, page by page, as unsorted", async () => {
      const c = await seed();
      const filters = [
        {
          or: [
            { field: "tags", op: "contains", value: "a" },
            { field: "code", op: "eq", value: "B" },
          ],
        },
        { field: "title", op: "ne", value: "rose" },
        {
          and: [
            { field: "flag", op: "isNull", value: true },
            { field: "code", op: "gte", value: "B" },
          ],
        },
        { field: "createdAt", op: "gte", value: "2000-01-01T00:00:00Z" },
      ];
      const sorts = [
        [{ field: "n", direction: "desc" }],
        [{ field: "n" }],
        [{ field: "code" }, { field: "n", direction: "desc" }],
        [{ field: "flag", direction: "desc" }, { field: "createdAt" }],
      ];
      for (const filter of filters) {
        const unsorted = (await where(c, filter)).sort();
        for (const sort of sorts) {
          const whole = await query(c, { filter, sort });
          expect(titles(whole).sort(), JSON.stringify({ filter, sort })).toEqual(unsorted);
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await query(c, { filter, sort, limit: 1, ...(cursor ? { cursor } : {}) });
            seen.push(...titles(page));
            cursor = page.body.nextCursor ?? undefined;
          } while (cursor);
          expect(seen, JSON.stringify({ filter, sort })).toEqual(titles(whole));
        }
      }
    });

    it("pages the same whether an equality is checked against its gathered matches or probed per row", async () => {
      // 100 items, 50 of kind "x": pages of 20 and 100 gather kind's matches into a set, a page of 1 probes the
      // value index per walked row (cms-query-sets.ts: 50 is 1.1 and 0.5 × √(rows read × items), but 3.5 × √(2 × 100)).
      const site = await ctx.t.createWebsite(`Sets ${newId().slice(-6)}`);
      const col = await post("/collections", {
        websiteId: site.id,
        name: "Parts",
        fields: Object.entries({ kind: "text", n: "number", flag: "boolean" }).map(([key, type]) => ({
          key,
          name: key,
          type,
        })),
      });
      const items = Array.from({ length: 100 }, (_, k) => ({
        values: { kind: k % 2 ? "y" : "x", flag: k % 3 !== 0, ...(k % 10 === 4 ? {} : { n: (k * 7) % 11 }) },
      }));
      const made = await post(`/collections/${col.body.id}/items/bulk-create`, { websiteId: site.id, items });
      expect(made.body.succeeded, JSON.stringify(made.body)).toBe(100);
      const ask = (body: Record<string, unknown>) =>
        post(`/collections/${col.body.id}/items/query`, { websiteId: site.id, ...body });
      const ids = (r: { body: { items: { id: string }[] } }) => r.body.items.map((i) => i.id);
      const filters = [
        { field: "kind", op: "eq", value: "x" },
        {
          and: [
            { field: "flag", op: "eq", value: true },
            { field: "kind", op: "eq", value: "x" },
          ],
        },
        {
          and: [
            { field: "kind", op: "eq", value: "x" },
            { field: "n", op: "gte", value: 3 },
          ],
        },
      ];
      for (const filter of filters) {
        const unsorted = ids(await ask({ filter, limit: 100 })).sort();
        for (const sort of [[{ field: "n", direction: "desc" }], [{ field: "n" }, { field: "flag" }]]) {
          const whole = await ask({ filter, sort, limit: 100 });
          expect(ids(whole).slice().sort(), JSON.stringify({ filter, sort })).toEqual(unsorted);
          for (const limit of [1, 20]) {
            const seen: string[] = [];
            let cursor: string | undefined;
            do {
              const page = await ask({ filter, sort, limit, ...(cursor ? { cursor } : {}) });
              expect(page.status, JSON.stringify(page.body)).toBe(200);
              seen.push(...ids(page));
              cursor = page.body.nextCursor ?? undefined;
            } while (cursor);
            expect(seen, JSON.stringify({ filter, sort, limit })).toEqual(ids(whole));
          }
        }
      }
    });

    it("orders empty values first ascending and last descending, ties by id, with cursors over 3 keys", async () => {
      const c = await seed();
      const sorted = async (sort: unknown[]) => titles(await query(c, { sort }));
      expect(await sorted([{ field: "n" }])).toEqual(["Zed", "rose", "ÉLAN vital", "Garden guide"]);
      expect(await sorted([{ field: "n", direction: "desc" }])).toEqual([
        "Garden guide",
        "ÉLAN vital",
        "rose",
        "Zed",
      ]);
      expect(await sorted([{ field: "code" }])).toEqual(["Garden guide", "ÉLAN vital", "Zed", "rose"]);
      // Code point order: "x…b" > "x…a" (same 100-character prefix) > "garden…" > "Grow…".
      expect(await sorted([{ field: "body", direction: "desc" }])).toEqual([
        "rose",
        "Zed",
        "ÉLAN vital",
        "Garden guide",
      ]);
      for (const sort of [
        [{ field: "on" }, { field: "flag", direction: "desc" }, { field: "title" }],
        [{ field: "author", direction: "desc" }, { field: "n" }, { field: "slug", direction: "desc" }],
      ]) {
        const whole = await sorted(sort);
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await query(c, { sort, limit: 1, ...(cursor ? { cursor } : {}) });
          seen.push(...titles(page));
          cursor = page.body.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(whole);
        expect(seen).toHaveLength(4);
      }
      const foreign = await query(c, { sort: [{ field: "n" }], limit: 1 });
      const refused = await query(c, { sort: [{ field: "title" }], cursor: foreign.body.nextCursor });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^cursor:/);
    });

    it("searches words of text fields, ranked: title over body, whole words over prefixes, all words required", async () => {
      const c = await seed();
      const search = async (text: string, extra: Record<string, unknown> = {}) =>
        titles(await query(c, { search: text, ...extra }));
      // "rose" is the whole title of one item (weight 3, exact ×2 = 6) and twice a body word of another (1 × 2 × 2 = 4).
      expect(await search("rose")).toEqual(["rose", "Garden guide"]);
      expect(await search("garden")).toEqual(["Garden guide", "ÉLAN vital"]);
      expect(await search("elan")).toEqual(["ÉLAN vital"]);
      expect(await search("gard notes")).toEqual(["ÉLAN vital"]);
      expect(await search("ros", { sort: [{ field: "title", direction: "desc" }] })).toEqual([
        "rose",
        "Garden guide",
      ]);
      const page = await query(c, { search: "garden", limit: 1 });
      const next = await query(c, { search: "garden", limit: 1, cursor: page.body.nextCursor });
      expect(titles(next)).toEqual(["ÉLAN vital"]);
      expect((await query(c, { search: "!!" })).status).toBe(400);
    });

    it("leaves archived items out unless asked, and reads the status asked", async () => {
      const c = await seed();
      await ctx.t.platform.db.transaction((s) =>
        s.cms.updateItem(c.ids[3] as string, { archived: true, updatedAt: Date.now() }),
      );
      expect(titles(await query(c, {}))).toEqual(["Garden guide", "ÉLAN vital", "rose"]);
      expect(titles(await query(c, { archived: "only" }))).toEqual(["Zed"]);
      expect(titles(await query(c, { archived: "include" }))).toHaveLength(4);
      const listed = await ctx.request("GET", `/cms/collections/${c.id}/items?websiteId=${c.websiteId}`);
      expect(listed.body.items).toHaveLength(3);
      await post("/items/set-published", { websiteId: c.websiteId, itemIds: [c.ids[1]], published: true });
      expect(titles(await query(c, { status: "published" }))).toEqual(["ÉLAN vital"]);
      expect(titles(await query(c, { status: "draft" }))).toEqual(["Garden guide", "rose"]);
    });

    it("includes referenced items by id, from the same website", async () => {
      const c = await seed();
      const r = await query(c, { include: ["author", "editors"], sort: [{ field: "title" }] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(Object.keys(r.body.included).sort()).toEqual([c.ada, c.grace].sort());
      expect(r.body.included[c.ada].values).toEqual({ name: "Ada" });
      const bad = await query(c, { include: ["title"] });
      expect(bad.status).toBe(400);
      expect(bad.body.validValues).toEqual(["author", "editors"]);
      expect((await query(c, {})).body.included).toBeUndefined();
      expect((await query(c, { status: "published", include: ["author"] })).body.included).toEqual({});
    });

    it("enforces unique values in the database: one of two concurrent creates wins, the other is 409 naming the field", async () => {
      const c = await seed();
      const dup = await post(`/collections/${c.id}/items`, {
        websiteId: c.websiteId,
        values: { title: "Dup", sku: "S1" },
      });
      expect(dup.status).toBe(409);
      expect(dup.body.message).toMatch(/^values\.sku: another item already has this value/);
      const create = (title: string) =>
        post(`/collections/${c.id}/items`, { websiteId: c.websiteId, values: { title, sku: "RACE" } });
      const results = await Promise.all([create("One"), create("Two")]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      // A freed value can be taken again; an update to a taken value is refused and changes nothing.
      const s2 = c.ids[1] as string;
      const taken = await ctx.request("PATCH", `/cms/items/${s2}`, {
        body: { websiteId: c.websiteId, values: { sku: "S1" } },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toMatch(/^values\.sku/);
      await ctx.request("PATCH", `/cms/items/${c.ids[0]}`, {
        body: { websiteId: c.websiteId, values: { sku: "S9" } },
      });
      const moved = await ctx.request("PATCH", `/cms/items/${s2}`, {
        body: { websiteId: c.websiteId, values: { sku: "S1" } },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    });
  },
  { server: false },
);

for (const d of dialects.filter((x) => x.name === "pg")) {
  describe.skipIf(!d.available)("cms unique values [pg, two nodes on one database]", () => {
    let t: TestPlatform | undefined;
    let second: Database | undefined;
    afterEach(async () => {
      await second?.close();
      await t?.close();
    });

    it("lets exactly one of two nodes' concurrent creates claim a unique value", async () => {
      t = await createTestPlatform("pg");
      const site = await t.createWebsite("Race");
      const col = await t.call("cms.collections.create", {
        websiteId: site.id,
        name: "Codes",
        fields: [{ key: "code", name: "Code", type: "text", unique: true }],
      });
      second = await openDatabase({ url: t.databaseUrl });
      const { createPlatform } = await import("../../src/platform.ts");
      const { fsBlobStore } = await import("../../src/blobs/index.ts");
      const { join } = await import("node:path");
      const { tmpdir } = await import("node:os");
      const other = await createPlatform({
        tools,
        db: second,
        blobs: fsBlobStore(join(tmpdir(), `sw-blobs-${newId()}`)),
        log: { info: () => undefined, error: () => undefined },
      });
      const { callTool } = await import("../../src/kernel/pipeline.ts");
      const nodeB = (input: unknown) =>
        callTool(other, other.registry.byOperationId("cms.items.create")!, input, {
          principal: t!.local.principal,
          transport: "internal",
          requestId: "req_b",
        });
      for (let round = 0; round < 5; round++) {
        const input = { websiteId: site.id, collectionId: col.id, values: { code: `C${round}` } };
        const outcomes = await Promise.allSettled([t.call("cms.items.create", input), nodeB(input)]);
        const won = outcomes.filter((o) => o.status === "fulfilled");
        const lost = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect(lost[0]?.reason).toMatchObject({ kind: "conflict" });
        expect(String(lost[0]?.reason.message)).toMatch(/^values\.code: another item already has this value/);
      }
    });
  });
}
