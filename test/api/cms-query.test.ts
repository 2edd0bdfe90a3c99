import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";

/** Query semantics: one suite on both databases proves they answer identically (the expectations are literal). */
describeMatrix(
  "cms queries and bulk calls",
  (ctx) => {
    const post = (path: string, body: Record<string, unknown>) =>
      ctx.request("POST", `/cms${path}`, { body });
    async function seed() {
      const site = await ctx.t.createWebsite(`Query ${newId().slice(-6)}`);
      const collection = await post("/collections", {
        websiteId: site.id,
        name: "Products",
        fields: [
          { key: "name", name: "Name", type: "text", required: true },
          { key: "price", name: "Price", type: "number" },
          { key: "kind", name: "Kind", type: "option", validValues: ["tool", "toy", "food"] },
          { key: "tags", name: "Tags", type: "multiOption", validValues: ["red", "blue", "new"] },
          { key: "inStock", name: "In stock", type: "boolean" },
          { key: "about", name: "About", type: "longText" },
          { key: "added", name: "Added", type: "date" },
        ],
      });
      expect(collection.status, JSON.stringify(collection.body)).toBe(200);
      const rows = [
        {
          name: "Hammer",
          price: 12.5,
          kind: "tool",
          tags: ["red"],
          inStock: true,
          about: "Steel head",
          added: "2026-01-03",
        },
        {
          name: "hammock",
          price: 80,
          kind: "toy",
          tags: ["blue", "new"],
          inStock: false,
          added: "2026-01-01",
        },
        { name: "Apple", price: 0.5, kind: "food", inStock: true, about: "Crisp and RED" },
        { name: "Élan", price: 12.5, kind: "toy", tags: ["new"], added: "2026-01-02" },
        { name: "Zebra", kind: "toy", about: "Striped" },
      ];
      const bulk = await post(`/collections/${collection.body.id}/items/bulk-create`, {
        websiteId: site.id,
        items: rows.map((values) => ({ values })),
      });
      expect(bulk.body.succeeded).toBe(5);
      return { websiteId: site.id, id: collection.body.id as string };
    }
    const names = (response: { body: { items: { values: { name: string } }[] } }) =>
      response.body.items.map((i) => i.values.name);

    it("filters with every operator, and/or, identically on every database", async () => {
      const c = await seed();
      const q = (body: Record<string, unknown>) =>
        post(`/collections/${c.id}/items/query`, { websiteId: c.websiteId, ...body });
      const cases: [unknown, string[]][] = [
        [{ field: "kind", op: "eq", value: "toy" }, ["hammock", "Élan", "Zebra"]],
        [{ field: "kind", op: "ne", value: "toy" }, ["Hammer", "Apple"]],
        [{ field: "price", op: "lt", value: 12.5 }, ["Apple"]],
        [{ field: "price", op: "lte", value: 12.5 }, ["Hammer", "Apple", "Élan"]],
        [{ field: "price", op: "gt", value: 12.5 }, ["hammock"]],
        [{ field: "price", op: "gte", value: 12.5 }, ["Hammer", "hammock", "Élan"]],
        [{ field: "kind", op: "in", value: ["food", "tool"] }, ["Hammer", "Apple"]],
        [{ field: "kind", op: "notIn", value: ["toy"] }, ["Hammer", "Apple"]],
        [{ field: "name", op: "contains", value: "AMM" }, ["Hammer", "hammock"]],
        [{ field: "tags", op: "contains", value: "new" }, ["hammock", "Élan"]],
        [{ field: "name", op: "startsWith", value: "h" }, ["Hammer", "hammock"]],
        [{ field: "price", op: "isNull", value: true }, ["Zebra"]],
        [{ field: "added", op: "isNull", value: false }, ["Hammer", "hammock", "Élan"]],
        [{ field: "inStock", op: "eq", value: true }, ["Hammer", "Apple"]],
        [{ field: "added", op: "gte", value: "2026-01-02" }, ["Hammer", "Élan"]],
        [
          {
            and: [
              { field: "kind", op: "eq", value: "toy" },
              {
                or: [
                  { field: "price", op: "gt", value: 50 },
                  { field: "price", op: "isNull", value: true },
                ],
              },
            ],
          },
          ["hammock", "Zebra"],
        ],
        [
          {
            or: [
              { field: "kind", op: "eq", value: "food" },
              {
                and: [
                  { field: "kind", op: "eq", value: "tool" },
                  { field: "inStock", op: "eq", value: true },
                ],
              },
            ],
          },
          ["Hammer", "Apple"],
        ],
      ];
      for (const [filter, expected] of cases) {
        const response = await q({ filter });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(names(response), JSON.stringify(filter)).toEqual(expected);
      }
      expect(names(await q({ search: "red" }))).toEqual(["Apple"]);
      expect(names(await q({ search: "STEEL" }))).toEqual(["Hammer"]);
    });

    it("sorts by up to 3 keys with empty values smallest, and pages sorted results with a cursor", async () => {
      const c = await seed();
      const q = (body: Record<string, unknown>) =>
        post(`/collections/${c.id}/items/query`, { websiteId: c.websiteId, ...body });
      // Empty values are the smallest: first ascending, last descending.
      expect(names(await q({ sort: [{ field: "price" }, { field: "name" }] }))).toEqual([
        "Zebra",
        "Apple",
        "Hammer",
        "Élan",
        "hammock",
      ]);
      expect(
        names(
          await q({
            sort: [
              { field: "price", direction: "desc" },
              { field: "name", direction: "desc" },
            ],
          }),
        ),
      ).toEqual(["hammock", "Élan", "Hammer", "Apple", "Zebra"]);
      // Strings order by code unit: uppercase before lowercase, accented letters after z.
      expect(names(await q({ sort: [{ field: "name" }] }))).toEqual([
        "Apple",
        "Hammer",
        "Zebra",
        "hammock",
        "Élan",
      ]);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await q({
          sort: [{ field: "kind" }, { field: "price", direction: "desc" }],
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        seen.push(...names(page));
        cursor = page.body.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(["Apple", "Hammer", "hammock", "Élan", "Zebra"]);
    });

    it("refuses unknown fields and operators that do not fit, with validValues", async () => {
      const c = await seed();
      const q = (body: Record<string, unknown>) =>
        post(`/collections/${c.id}/items/query`, { websiteId: c.websiteId, ...body });
      const unknown = await q({ filter: { field: "colour", op: "eq", value: "x" } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/^filter\.field: 'colour' is not a field/);
      expect(unknown.body.validValues).toContain("price");
      const wrongOp = await q({ filter: { field: "inStock", op: "gt", value: true } });
      expect(wrongOp.status).toBe(400);
      expect(wrongOp.body.message).toMatch(/^filter\.op: 'gt' does not apply to 'inStock'/);
      expect(wrongOp.body.validValues).toEqual(["eq", "ne", "isNull"]);
      const badOp = await q({ filter: { field: "name", op: "like", value: "x" } });
      expect(badOp.status).toBe(400);
      expect(badOp.body.validValues).toContain("startsWith");
      const badValue = await q({ filter: { field: "price", op: "gt", value: "10" } });
      expect(badValue.body.message).toMatch(/^filter\.value: must be a number/);
      const nested = await q({ filter: { and: [{ field: "nope", op: "eq", value: 1 }] } });
      expect(nested.body.message).toMatch(/^filter\.and\[0\]\.field/);
      const tooManySorts = await q({
        sort: [{ field: "name" }, { field: "price" }, { field: "kind" }, { field: "added" }],
      });
      expect(tooManySorts.status).toBe(400);
      const badSort = await q({ sort: [{ field: "tags" }] });
      expect(badSort.body.message).toMatch(/^sort\[0\]\.field/);
    });

    it("reads published values with status published, draft values otherwise", async () => {
      const c = await seed();
      const q = (body: Record<string, unknown>) =>
        post(`/collections/${c.id}/items/query`, { websiteId: c.websiteId, ...body });
      const hammer = (await q({ filter: { field: "name", op: "eq", value: "Hammer" } })).body.items[0];
      await post("/items/set-published", { websiteId: c.websiteId, itemIds: [hammer.id], published: true });
      await ctx.request("PATCH", `/cms/items/${hammer.id}`, {
        body: { websiteId: c.websiteId, values: { name: "Mallet" } },
      });
      expect(names(await q({ status: "published" }))).toEqual(["Mallet"]);
      expect(
        names(await q({ status: "published", filter: { field: "name", op: "eq", value: "Hammer" } })),
      ).toEqual(["Mallet"]);
      const live = await q({ status: "published", filter: { field: "name", op: "eq", value: "Mallet" } });
      expect(live.body.items).toEqual([]);
      const published = await q({ status: "published", filter: { field: "price", op: "eq", value: 12.5 } });
      expect(
        published.body.items.map((i: { publishedValues: { name: string } }) => i.publishedValues.name),
      ).toEqual(["Hammer"]);
      expect(names(await q({ status: "draft", filter: { field: "kind", op: "eq", value: "tool" } }))).toEqual(
        [],
      );
    });

    it("deletes a website's CMS with the website", async () => {
      const c = await seed();
      expect((await ctx.request("DELETE", `/websites/${c.websiteId}`)).status).toBe(200);
      expect(await ctx.t.platform.db.read((s) => s.cms.countItems(c.id))).toBe(0);
      expect(await ctx.t.platform.db.read((s) => s.cms.getCollection(c.id))).toBeUndefined();
    });

    it("bulk-creates, updates and deletes with per-item results, writing only the valid ones", async () => {
      const c = await seed();
      const created = await post(`/collections/${c.id}/items/bulk-create`, {
        websiteId: c.websiteId,
        items: [
          { values: { name: "Saw", kind: "tool" } },
          { values: { name: "Bad", kind: "weapon" } },
          { values: { price: 3 } },
          { slug: "saw", values: { name: "Saw again" } },
          { values: { name: "Saw" } },
        ],
      });
      expect(created.status).toBe(200);
      expect(created.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([
        true,
        false,
        false,
        false,
        true,
      ]);
      expect(created.body.results[1].error).toMatchObject({
        kind: "validation",
        validValues: ["tool", "toy", "food"],
      });
      expect(created.body.results[2].error.message).toMatch(/^values\.name: is required/);
      expect(created.body.results[3].error.kind).toBe("conflict");
      expect(created.body.results[4].item.slug).toBe("saw-2");
      expect({ succeeded: created.body.succeeded, failed: created.body.failed }).toEqual({
        succeeded: 2,
        failed: 3,
      });

      const saw = created.body.results[0].item;
      const updated = await post("/items/bulk-update", {
        websiteId: c.websiteId,
        items: [
          { itemId: saw.id, values: { price: 9 }, expectedVersion: 1 },
          { itemId: saw.id, values: { price: 10 }, expectedVersion: 1 },
          { itemId: newId(), values: { price: 1 } },
          { itemId: saw.id, values: { price: "free" } },
        ],
      });
      expect(updated.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false, false]);
      expect(updated.body.results[1].error.kind).toBe("conflict");
      expect(updated.body.results[2].error.kind).toBe("not_found");
      expect(updated.body.results[3].error.message).toMatch(/^values\.price/);
      const current = await ctx.request("GET", `/cms/items/${saw.id}?websiteId=${c.websiteId}`);
      expect(current.body).toMatchObject({ version: 2, values: { name: "Saw", kind: "tool", price: 9 } });

      const deleted = await post("/items/bulk-delete", {
        websiteId: c.websiteId,
        itemIds: [saw.id, newId()],
      });
      expect(deleted.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);

      const sameCall = await post(`/collections/${c.id}/items/bulk-create`, {
        websiteId: c.websiteId,
        items: [{ values: { name: "Drill" } }, { values: { name: "Drill" } }, { values: { name: "Drill" } }],
      });
      expect(sameCall.body.results.map((r: { item: { slug: string } }) => r.item.slug)).toEqual([
        "drill",
        "drill-2",
        "drill-3",
      ]);

      const tooMany = await post(`/collections/${c.id}/items/bulk-create`, {
        websiteId: c.websiteId,
        items: Array.from({ length: 101 }, (_, i) => ({ values: { name: `n${i}` } })),
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toMatch(/^items: must be at most 100/);
    });

    it("bulk-creates with unique values, references and slugs checked within the call and against stored items", async () => {
      const site = await ctx.t.createWebsite(`Unique ${newId().slice(-6)}`);
      const makers = await post("/collections", {
        websiteId: site.id,
        name: "Makers",
        fields: [{ key: "name", name: "Name", type: "text", required: true }],
      });
      const other = await post("/collections", {
        websiteId: site.id,
        name: "Others",
        fields: [{ key: "name", name: "Name", type: "text", required: true }],
      });
      const parts = await post("/collections", {
        websiteId: site.id,
        name: "Parts",
        fields: [
          { key: "name", name: "Name", type: "text", required: true },
          { key: "sku", name: "SKU", type: "text", unique: true },
          { key: "maker", name: "Maker", type: "reference", referenceCollectionId: makers.body.id },
        ],
      });
      expect(parts.status, JSON.stringify(parts.body)).toBe(200);
      const bulk = (collectionId: string, items: unknown[]) =>
        post(`/collections/${collectionId}/items/bulk-create`, { websiteId: site.id, items });
      const maker = (await bulk(makers.body.id, [{ values: { name: "Acme" } }])).body.results[0].item;
      const stranger = (await bulk(other.body.id, [{ values: { name: "Acme" } }])).body.results[0].item;
      const first = await bulk(parts.body.id, [{ values: { name: "Bolt", sku: "B-1" }, publish: true }]);
      expect(first.body.succeeded).toBe(1);

      const made = await bulk(parts.body.id, [
        { values: { name: "Bolt", sku: "B-1" } }, // stored item has B-1
        { values: { name: "Nut", sku: "N-1", maker: maker.id } },
        { values: { name: "Nut", sku: "N-1" } }, // item 1 of this call has N-1
        { values: { name: "Nut", sku: "N-2", maker: stranger.id } }, // not a maker
        { values: { name: "Bolt", sku: "B-2" } },
        { slug: "nut-2", values: { name: "Washer" } }, // free: items 2 and 3 were refused
        { values: { name: "Nut" } },
        { slug: "nut", values: { name: "Nut" } }, // item 1 of this call took "nut"
      ]);
      expect(made.status).toBe(200);
      const results = made.body.results as {
        ok: boolean;
        item?: { slug: string; values: Record<string, unknown> };
        error?: { kind: string; message: string };
      }[];
      expect(results.map((r) => r.ok)).toEqual([false, true, false, false, true, true, true, false]);
      expect(results[0]!.error).toMatchObject({
        kind: "conflict",
        message: expect.stringMatching(/^values\.sku: /),
      });
      expect(results[2]!.error).toMatchObject({
        kind: "conflict",
        message: expect.stringMatching(/^values\.sku: /),
      });
      expect(results[3]!.error).toMatchObject({
        kind: "validation",
        message: expect.stringMatching(/^values\.maker: /),
      });
      expect(results[7]!.error).toMatchObject({
        kind: "conflict",
        message: expect.stringMatching(/^slug: /),
      });
      expect(results.filter((r) => r.ok).map((r) => r.item!.slug)).toEqual([
        "nut",
        "bolt-2",
        "nut-2",
        "nut-3",
      ]);
      expect(results[1]!.item!.values).toEqual({ name: "Nut", sku: "N-1", maker: maker.id });

      // The claims are stored: a later call (or a single create) clashes with them too; refused values stay free.
      const again = await bulk(parts.body.id, [
        { values: { name: "X", sku: "N-1" } },
        { values: { name: "Y", sku: "N-2" } },
      ]);
      expect(again.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, true]);
      const single = await post(`/collections/${parts.body.id}/items`, {
        websiteId: site.id,
        values: { name: "Z", sku: "B-2" },
      });
      expect(single.status).toBe(409);
      expect(single.body.message).toMatch(/^values\.sku: /);
      const total = await ctx.t.platform.db.read((s) => s.cms.countItems(parts.body.id));
      expect(total).toBe(6);
    });
  },
  { server: false },
);
