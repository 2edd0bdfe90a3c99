import { beforeEach, expect, it } from "vitest";
import { rebuildFlaggedIndexes } from "../../src/db/database.ts";
import {
  type CmsCollectionRecord,
  type CmsFieldRecord,
  type CmsItemRecord,
  isUniqueViolation,
} from "../../src/db/stores/cms.ts";
import { uniqueRows } from "../../src/db/stores/cms-index.ts";
import { describeStores, hexId, rawQuery, seedWebsites } from "./fixtures.ts";

const collection = (
  websiteId: string,
  overrides: Partial<CmsCollectionRecord> = {},
): CmsCollectionRecord => ({
  id: hexId(),
  websiteId,
  slug: `c-${hexId()}`,
  name: "Blog",
  description: "",
  createdAt: 1_000,
  updatedAt: 1_000,
  ...overrides,
});

const field = (collectionId: string, overrides: Partial<CmsFieldRecord> = {}): CmsFieldRecord => ({
  id: hexId(),
  collectionId,
  key: "title",
  name: "Title",
  helpText: "",
  type: "text",
  required: true,
  unique: false,
  defaultValue: null,
  validations: { maxLength: 10 },
  options: {},
  position: 0,
  createdAt: 1_000,
  updatedAt: 1_000,
  ...overrides,
});

const item = (c: CmsCollectionRecord, overrides: Partial<CmsItemRecord> = {}): CmsItemRecord => ({
  id: hexId(),
  collectionId: c.id,
  websiteId: c.websiteId,
  slug: `i-${hexId()}`,
  draftValues: { title: "Hello", n: 1.5, tags: ["a", "b"], nested: { ok: true } },
  publishedValues: null,
  draftHtml: {},
  publishedHtml: null,
  status: "draft",
  version: 1,
  archived: false,
  position: 0,
  createdAt: 1_000,
  updatedAt: 1_000,
  publishedAt: null,
  ...overrides,
});

describeStores("cms store", (ctx) => {
  beforeEach(() => seedWebsites(ctx.db, ["site", "site-a", "site-b", "other"]));

  it("stores collections with a slug unique per website", async () => {
    const a = collection("site-a", { slug: "blog" });
    await ctx.db.transaction((s) => s.cms.insertCollection(a));
    await ctx.db.transaction((s) => s.cms.insertCollection(collection("site-b", { slug: "blog" })));
    await expect(
      ctx.db.transaction((s) => s.cms.insertCollection(collection("site-a", { slug: "blog" }))),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.cms.getCollection(a.id))).toStrictEqual(a);
    expect(await ctx.db.read((s) => s.cms.getCollectionBySlug("site-a", "blog"))).toStrictEqual(a);
    expect(await ctx.db.read((s) => s.cms.countCollections("site-a"))).toBe(1);
    await ctx.db.transaction((s) => s.cms.updateCollection(a.id, { name: "News", updatedAt: 2_000 }));
    expect((await ctx.db.read((s) => s.cms.getCollection(a.id)))?.name).toBe("News");
  });

  it("stores fields with JSON settings, keys unique per collection, in position order", async () => {
    const c = collection("site");
    const second = field(c.id, { key: "body", type: "richText", position: 1, options: { x: [1, "two"] } });
    const first = field(c.id, { position: 0, defaultValue: "Untitled" });
    await ctx.db.transaction(async (s) => {
      await s.cms.insertCollection(c);
      await s.cms.insertField(second);
      await s.cms.insertField(first);
    });
    await expect(
      ctx.db.transaction((s) => s.cms.insertField(field(c.id, { key: "body" }))),
    ).rejects.toThrow();
    expect(await ctx.db.read((s) => s.cms.listFields(c.id))).toStrictEqual([first, second]);
    expect(await ctx.db.read((s) => s.cms.listWebsiteFields("site"))).toHaveLength(2);
    expect(await ctx.db.read((s) => s.cms.countFields(c.id))).toBe(2);
    await ctx.db.transaction((s) => s.cms.deleteField(first.id));
    expect(await ctx.db.read((s) => s.cms.listFields(c.id))).toStrictEqual([second]);
  });

  it("stores items with JSON values, unique slugs, versioned updates and published filtering", async () => {
    const c = collection("site");
    const a = item(c, { slug: "a", createdAt: 1_000 });
    const b = item(c, { slug: "b", createdAt: 2_000, status: "published", publishedValues: { title: "B" } });
    await ctx.db.transaction(async (s) => {
      await s.cms.insertCollection(c);
      await s.cms.insertItem(b);
      await s.cms.insertItem(a);
    });
    const clash = await ctx.db.transaction((s) => s.cms.insertItem(item(c, { slug: "a" }))).catch((e) => e);
    expect(isUniqueViolation(clash)).toBe(true);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
    expect(await ctx.db.read((s) => s.cms.getItem(a.id))).toStrictEqual(a);
    expect(await ctx.db.read((s) => s.cms.getItemBySlug(c.id, "b"))).toStrictEqual(b);
    expect(await ctx.db.read((s) => s.cms.listItems(c.id))).toStrictEqual([a, b]);
    expect(await ctx.db.read((s) => s.cms.listItems(c.id, { published: true }))).toStrictEqual([b]);
    expect(await ctx.db.read((s) => s.cms.slugsWithPrefix(c.id, "a"))).toStrictEqual(["a"]);
    expect((await ctx.db.read((s) => s.cms.getItems([a.id, b.id, "missing"]))).length).toBe(2);

    const stale = await ctx.db.transaction((s) =>
      s.cms.updateItem(a.id, { draftValues: { title: "X" }, updatedAt: 3_000 }, 7),
    );
    expect(stale).toBeUndefined();
    const updated = await ctx.db.transaction((s) =>
      s.cms.updateItem(a.id, { draftValues: { title: "X" }, updatedAt: 3_000 }, 1),
    );
    expect(updated).toStrictEqual({
      ...a,
      draftValues: { title: "X" },
      draftHtml: null, // new values without their HTML: rendered again (stored-html.ts)
      updatedAt: 3_000,
      version: 2,
    });
    expect(await ctx.db.transaction((s) => s.cms.deleteItem(a.id))).toBe(true);
    expect(await ctx.db.transaction((s) => s.cms.deleteItem(a.id))).toBe(false);
    expect(await ctx.db.read((s) => s.cms.countItems(c.id))).toBe(1);
  });

  it("inserts many items all or nothing, with their index rows and unique claims", async () => {
    const c = collection("site");
    const sku = field(c.id, { key: "sku", required: false, unique: true, validations: {} });
    await ctx.db.transaction(async (s) => {
      await s.cms.insertCollection(c);
      await s.cms.insertField(field(c.id));
      await s.cms.insertField(sku);
    });
    const made = (title: string, code: string, extra: Partial<CmsItemRecord> = {}) =>
      item(c, { draftValues: { title, sku: code }, ...extra });
    const a = made("Alpha", "A");
    const b = made("Beta", "B", { status: "published", publishedValues: { title: "Beta", sku: "B" } });
    // Text that array and JSON encodings must carry intact.
    const odd = 'NULL, "q" \\ {x} é 😀 \n';
    const c1 = made(odd, "C1", {
      draftValues: { title: odd, sku: "C1", n: 0.1, big: 1e21, nested: { z: [1, null, false] } },
    });
    await ctx.db.transaction((s) => s.cms.insertItems([a, b, c1]));
    expect(await ctx.db.read((s) => s.cms.getItem(c1.id))).toStrictEqual(c1);
    expect(await ctx.db.read((s) => s.cms.getItem(b.id))).toStrictEqual(b);
    expect(await ctx.db.read((s) => s.cms.slugsIn(c.id, [a.slug, "missing", b.slug]))).toHaveLength(2);
    // A value held already, or twice in one call: conflict naming the field, nothing written.
    for (const batch of [
      [made("Gamma", "C"), made("Delta", "A")],
      [made("Eps", "E"), made("Zeta", "E")],
    ]) {
      const clash = await ctx.db.transaction((s) => s.cms.insertItems(batch)).catch((e) => e);
      expect(clash.message).toMatch(/^values\.sku: /);
      expect(await ctx.db.read((s) => s.cms.countItems(c.id))).toBe(3);
    }
    const find = (key: string, value: string, status: "all" | "published" = "all") =>
      ctx.db.read((s) =>
        s.cms.queryItems({
          collectionId: c.id,
          status,
          archived: "exclude",
          filter: {
            condition: { ref: { kind: "value", key, numeric: false, multi: false }, op: "eq", value },
          },
          sort: [],
          limit: 10,
        }),
      );
    expect((await find("title", "Beta")).items.map((x) => x.id)).toStrictEqual([b.id]);
    expect((await find("sku", "B", "published")).items.map((x) => x.id)).toStrictEqual([b.id]);
    expect((await find("title", odd)).items.map((x) => x.id)).toStrictEqual([c1.id]);
    // The page's statement returns whole records, mapped as the ORM's own reads map them (JSON, booleans, times).
    expect((await find("title", odd)).items).toStrictEqual([c1]);
    expect((await find("sku", "B", "published")).items).toStrictEqual([
      await ctx.db.read((s) => s.cms.getItem(b.id)),
    ]);
    expect((await find("sku", "A", "published")).items).toStrictEqual([]);
    // Held claims are found by value (whatever item would claim them).
    const wanted = [made("Other", "A"), made("New", "N"), made("Pub", "B")].flatMap((x) =>
      uniqueRows(x, "d", [sku], x.draftValues),
    );
    const held = await ctx.db.read((s) => s.cms.heldUniques(c.id, wanted));
    expect(held.map((r) => r.itemId).sort()).toStrictEqual([a.id, b.id].sort());
  });

  it("deletes a collection with its fields, items and query index, and a website's whole CMS with the website", async () => {
    const c = collection("site");
    const other = collection("other");
    await ctx.db.transaction(async (s) => {
      await s.cms.insertCollection(c);
      await s.cms.insertCollection(other);
      await s.cms.insertField(field(c.id));
      await s.cms.insertItem(item(c));
      await s.cms.insertField(field(other.id));
      await s.cms.insertItem(item(other));
    });
    await ctx.db.transaction((s) => s.cms.deleteCollection(c.id));
    expect(await ctx.db.read((s) => s.cms.getCollection(c.id))).toBeUndefined();
    expect(await ctx.db.read((s) => s.cms.countFields(c.id))).toBe(0);
    expect(await ctx.db.read((s) => s.cms.countItems(c.id))).toBe(0);
    const indexRows = async (collectionId: string) => {
      let n = 0;
      for (const table of ["cms_item_values", "cms_item_terms", "cms_item_uniques"])
        n += (
          await rawQuery(
            ctx.dialect,
            ctx.url,
            `SELECT 1 FROM ${table} WHERE collection_id = '${collectionId}'`,
          )
        ).length;
      return n;
    };
    expect(await indexRows(c.id)).toBe(0);
    expect(await indexRows(other.id)).toBeGreaterThan(0);
    await ctx.db.transaction((s) => s.websites.delete("other"));
    expect(await ctx.db.read((s) => s.cms.listCollections("other"))).toStrictEqual([]);
    expect(await ctx.db.read((s) => s.cms.countItems(other.id))).toBe(0);
    expect(await ctx.db.read((s) => s.cms.countFields(other.id))).toBe(0);
    expect(await indexRows(other.id)).toBe(0);
  });

  it("rebuilds the query index of collections a migration flagged, once, at open", async () => {
    const c = collection("site");
    const a = item(c, { slug: "a", draftValues: { title: "Findme" } });
    const b = item(c, { slug: "b", draftValues: { title: "Other" } });
    await ctx.db.transaction(async (s) => {
      await s.cms.insertCollection(c);
      await s.cms.insertField(field(c.id));
      await s.cms.insertItem(a);
      await s.cms.insertItem(b);
    });
    const find = () =>
      ctx.db.read((s) =>
        s.cms.queryItems({
          collectionId: c.id,
          status: "draft",
          archived: "exclude",
          filter: {
            condition: {
              ref: { kind: "value", key: "title", numeric: false, multi: false },
              op: "eq",
              value: "Findme",
            },
          },
          sort: [],
          limit: 10,
        }),
      );
    expect((await find()).items.map((x) => x.id)).toStrictEqual([a.id]);
    // As a database from before the index: no index rows, and the migration's flag set.
    await rawQuery(ctx.dialect, ctx.url, "DELETE FROM cms_item_values");
    await rawQuery(
      ctx.dialect,
      ctx.url,
      `UPDATE cms_collections SET index_stale = ${ctx.dialect === "pg" ? "true" : "1"}`,
    );
    expect((await find()).items).toStrictEqual([]);
    expect(await ctx.db.read((s) => s.cms.staleCollectionIds())).toStrictEqual([c.id]);
    expect(await rebuildFlaggedIndexes(ctx.db)).toBe(1);
    expect((await find()).items.map((x) => x.id)).toStrictEqual([a.id]);
    expect(await rebuildFlaggedIndexes(ctx.db)).toBe(0);
    expect(await ctx.db.read((s) => s.cms.getCollection(c.id))).toStrictEqual(c);
  });
});
