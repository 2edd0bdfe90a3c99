import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { readCmsSnapshot } from "../../src/services/cms/provider.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

interface Item {
  id: string;
  slug: string;
  position: number;
  version: number;
  archived: boolean;
  createdAt: string;
}

function helpers(ctx: MatrixContext) {
  let sites = 0;
  const h = {
    post: (path: string, body: Record<string, unknown>) => ctx.request("POST", `/cms${path}`, { body }),
    get: (path: string, websiteId: string) => ctx.request("GET", `/cms${path}?websiteId=${websiteId}`),
    /** A website with a "blog" collection (title, body, date) and items titled as given (created in order). */
    async blog(titles: string[]) {
      const site = await ctx.t.createWebsite(`Organize ${ctx.mode} ${++sites} ${newId().slice(-5)}`);
      const blog = await h.post("/collections", {
        websiteId: site.id,
        name: "Blog",
        slug: "blog",
        fields: [
          { key: "title", name: "Title", type: "text", required: true },
          { key: "body", name: "Body", type: "richText" },
          { key: "date", name: "Date", type: "date" },
        ],
      });
      expect(blog.status, JSON.stringify(blog.body)).toBe(200);
      const items: Item[] = [];
      for (const title of titles) {
        const created = await h.post(`/collections/${blog.body.id}/items`, {
          websiteId: site.id,
          values: { title },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        items.push(created.body);
      }
      return { site, collectionId: blog.body.id as string, items };
    },
    /** Slugs in manual order, read through the items' own `position` (ties: createdAt, id). */
    async order(websiteId: string, items: readonly Item[]) {
      const fresh: Item[] = [];
      for (const item of items) fresh.push((await h.get(`/items/${item.id}`, websiteId)).body);
      return fresh
        .sort(
          (a, b) =>
            a.position - b.position || a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1),
        )
        .map((item) => item.slug);
    },
    reorder: (websiteId: string, collectionId: string, body: Record<string, unknown>) =>
      h.post(`/collections/${collectionId}/items/reorder`, { websiteId, ...body }),
    snapshot: (websiteId: string, mode: "publish" | "preview") =>
      ctx.t.platform.db.read((stores) => readCmsSnapshot(stores, websiteId, mode)),
  };
  return h;
}

describeMatrix("cms organize: archive and manual order", (ctx) => {
  const h = helpers(ctx);

  it("puts new items last, single and bulk, in input order", async () => {
    const { site, collectionId, items } = await h.blog(["A", "B"]);
    const bulk = await h.post(`/collections/${collectionId}/items/bulk-create`, {
      websiteId: site.id,
      items: [{ values: { title: "C" } }, { values: { title: "D" } }],
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const all = [...items, ...bulk.body.results.map((r: { item: Item }) => r.item)];
    const positions = all.map((item) => item.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(new Set(positions).size).toBe(4);
    expect(await h.order(site.id, all)).toEqual(["a", "b", "c", "d"]);
  });

  it("moves items before or after another, to the start or end, and sets a whole order", async () => {
    const { site, collectionId, items } = await h.blog(["A", "B", "C", "D"]);
    const [a, b, c, d] = items as [Item, Item, Item, Item];
    const move = async (body: Record<string, unknown>, expected: string[]) => {
      const response = await h.reorder(site.id, collectionId, body);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(await h.order(site.id, items)).toEqual(expected);
      return response.body;
    };
    const moved = await move({ itemIds: [d.id], before: a.id }, ["d", "a", "b", "c"]);
    expect(moved).toMatchObject({ collectionId, items: [{ id: d.id, slug: "d" }] });
    await move({ itemIds: [a.id], after: c.id }, ["d", "b", "c", "a"]);
    await move({ itemIds: [c.id, a.id, b.id, d.id] }, ["c", "a", "b", "d"]);
    await move({ itemIds: [b.id], at: "end" }, ["c", "a", "d", "b"]);
    await move({ itemIds: [b.id, d.id], at: "start" }, ["b", "d", "c", "a"]);
    await move({ itemIds: [a.id, c.id], after: b.id }, ["b", "a", "c", "d"]);

    // Reordering is not an edit: versions stay.
    for (const item of items)
      expect((await h.get(`/items/${item.id}`, site.id)).body.version).toBe(item.version);
    // New items still go last; sitewright:cms lists items in manual order.
    const e = await h.post(`/collections/${collectionId}/items`, {
      websiteId: site.id,
      values: { title: "E" },
    });
    expect(await h.order(site.id, [...items, e.body])).toEqual(["b", "a", "c", "d", "e"]);
    const preview = await h.snapshot(site.id, "preview");
    expect(preview.blog!.map((item) => item.slug)).toEqual(["b", "a", "c", "d", "e"]);
  });

  it("renumbers when the gap between neighbours runs out, keeping every other item's order", async () => {
    const titles = Array.from({ length: 16 }, (_, n) => `Post ${n}`);
    const { site, collectionId, items } = await h.blog(titles);
    const expected = items.map((item) => item.slug);
    // Each move lands right after the first item, halving the same gap until none is left.
    for (const item of items.slice(2).reverse()) {
      const response = await h.reorder(site.id, collectionId, { itemIds: [item.id], after: items[0]!.id });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expected.splice(expected.indexOf(item.slug), 1);
      expected.splice(1, 0, item.slug);
    }
    expect(await h.order(site.id, items)).toEqual(expected);
  });

  it("refuses unknown items, items of another collection or website, and bad input", async () => {
    const { site, collectionId, items } = await h.blog(["A", "B"]);
    const other = await h.post("/collections", { websiteId: site.id, name: "Other", slug: "other" });
    const stranger = await h.post(`/collections/${other.body.id}/items`, { websiteId: site.id, values: {} });
    const foreign = await h.blog(["F"]);
    const [a, b] = items as [Item, Item];
    const refused = async (
      body: Record<string, unknown>,
      status: number,
      message: RegExp,
      id = collectionId,
    ) => {
      const response = await h.reorder(site.id, id, body);
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.message).toMatch(message);
      return response.body;
    };
    const unknown = newId();
    const missing = await refused(
      { itemIds: [unknown] },
      404,
      new RegExp(`^itemIds: item '${unknown}' was not found`),
    );
    expect(missing.kind).toBe("not_found");
    await refused({ itemIds: [stranger.body.id] }, 404, /^itemIds: item .* was not found in this collection/);
    await refused({ itemIds: [foreign.items[0]!.id] }, 404, /^itemIds: item .* was not found/);
    await refused({ itemIds: [a.id], before: stranger.body.id }, 404, /^before: item .* was not found/);
    await refused({ itemIds: [a.id], after: foreign.items[0]!.id }, 404, /^after: item .* was not found/);
    await refused({ itemIds: [a.id] }, 404, /Collection .* was not found/, foreign.collectionId);
    await refused({ itemIds: [a.id], before: a.id }, 400, /^before: item .* is one of itemIds/);
    await refused({ itemIds: [a.id, a.id] }, 400, /^itemIds: must not repeat/);
    await refused({ itemIds: [a.id], before: b.id, at: "end" }, 400, /at most one/);
    const tooMany = await refused({ itemIds: Array.from({ length: 101 }, () => newId()) }, 400, /itemIds/);
    expect(tooMany.kind).toBe("validation");
    await refused({ itemIds: [] }, 400, /itemIds/);
    // Nothing moved.
    expect(await h.order(site.id, items)).toEqual(["a", "b"]);
  });

  it("archives and unarchives many items with per-item results", async () => {
    const { site, items } = await h.blog(["A", "B", "C"]);
    const [a, b] = items as [Item, Item];
    const unknown = newId();
    const archived = await h.post("/items/archive", {
      websiteId: site.id,
      itemIds: [a.id, unknown, b.id],
      archived: true,
    });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(archived.body).toMatchObject({ succeeded: 2, failed: 1 });
    expect(archived.body.results[0]).toMatchObject({
      index: 0,
      ok: true,
      item: { id: a.id, archived: true },
    });
    expect(archived.body.results[0].item.version).toBe(a.version + 1);
    expect(archived.body.results[1]).toMatchObject({ index: 1, ok: false, error: { kind: "not_found" } });
    expect((await h.get(`/items/${a.id}`, site.id)).body).toMatchObject({ archived: true, status: "draft" });
    // Archiving again changes nothing (no new version).
    const again = await h.post("/items/archive", { websiteId: site.id, itemIds: [a.id], archived: true });
    expect(again.body.results[0].item.version).toBe(a.version + 1);
    const restored = await h.post("/items/archive", { websiteId: site.id, itemIds: [a.id], archived: false });
    expect(restored.body.results[0].item).toMatchObject({ archived: false, version: a.version + 2 });

    const foreign = await h.blog(["F"]);
    const cross = await h.post("/items/archive", {
      websiteId: site.id,
      itemIds: [foreign.items[0]!.id],
      archived: true,
    });
    expect(cross.body.results[0].error.kind).toBe("not_found");
    expect((await h.get(`/items/${foreign.items[0]!.id}`, foreign.site.id)).body.archived).toBe(false);
    const tooMany = await h.post("/items/archive", {
      websiteId: site.id,
      itemIds: Array.from({ length: 101 }, () => newId()),
      archived: true,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.kind).toBe("validation");
    const repeated = await h.post("/items/archive", {
      websiteId: site.id,
      itemIds: [a.id, a.id],
      archived: true,
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toMatch(/^itemIds: must not repeat/);
  });

  it("leaves archived items out of the site: preview at once, live site on the next publish", async () => {
    const { site, items } = await h.blog(["First light", "Second wind"]);
    const [first, second] = items as [Item, Item];
    const page = async (host: string, path: string, key?: string) => {
      const response = await ctx.t.app.fetch(
        new Request(`http://${host}${path}`, {
          headers: { host, ...(key ? { authorization: `Bearer ${key}` } : {}) },
        }),
      );
      return { status: response.status, text: await response.text() };
    };
    const publish = async () => {
      const response = await ctx.request("POST", "/websiteSourceCode/head/publish", {
        body: { websiteId: site.id },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };
    const live = `${site.slug}.localhost`;
    const preview = `preview--${site.slug}.localhost`;
    const key = ctx.t.adminKey.plaintextKey;

    await h.post("/items/set-published", {
      websiteId: site.id,
      itemIds: [first.id, second.id],
      published: true,
    });
    await publish();
    expect((await page(live, "/blog/")).text).toContain("Second wind");
    expect((await page(live, `/blog/${second.slug}/`)).status).toBe(200);

    await h.post("/items/archive", { websiteId: site.id, itemIds: [second.id], archived: true });
    // The item keeps its published values; the live site changes on the next publish only.
    expect((await h.get(`/items/${second.id}`, site.id)).body).toMatchObject({
      status: "published",
      archived: true,
    });
    expect((await page(live, "/blog/")).text).toContain("Second wind");
    expect((await page(preview, "/blog/", key)).text).not.toContain("Second wind");
    expect((await page(preview, `/blog/${second.slug}/`, key)).status).toBe(404);
    expect((await h.snapshot(site.id, "publish")).blog!.map((item) => item.slug)).toEqual([first.slug]);

    await publish();
    const index = await page(live, "/blog/");
    expect(index.text).toContain("First light");
    expect(index.text).not.toContain("Second wind");
    expect((await page(live, `/blog/${second.slug}/`)).status).toBe(404);
    expect((await page(live, `/blog/${first.slug}/`)).status).toBe(200);

    await h.post("/items/archive", { websiteId: site.id, itemIds: [second.id], archived: false });
    await publish();
    expect((await page(live, "/blog/")).text).toContain("Second wind");
    expect((await page(live, `/blog/${second.slug}/`)).status).toBe(200);
  });
});
