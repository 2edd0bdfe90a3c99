import { expect, it } from "vitest";
import { renderSafeMarkdown } from "../../src/framework/safe-markdown.ts";
import { newId } from "../../src/kernel/ids.ts";
import { readCmsSnapshot } from "../../src/services/cms/provider.ts";
import { richTextRenders } from "../../src/services/cms/rich-text.ts";
import { backfillRichTextHtml } from "../../src/services/cms/stored-html.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

/** Longer than the inline limit: rendered off the main thread in the tool's prepare. */
const LONG = `# Notes\n\n${"Some *emphasis*, a [link](https://example.com/a) and `code`. ".repeat(12)}\n\n- one\n- two\n`;
const SHORT = "Hello **world** <script>x</script>";

function helpers(ctx: MatrixContext) {
  const ok = async (method: string, path: string, body?: Record<string, unknown>) => {
    const response = await ctx.request(method, path, body ? { body } : {});
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const row = (id: string) => ctx.t.platform.db.read((s) => s.cms.getItem(id));
  const setup = async () => {
    const site = await ok("POST", "/websites", { name: `Rich ${newId().slice(-6)}` });
    const collection = await ok("POST", "/cms/collections", {
      websiteId: site.id,
      name: "Posts",
      slug: "posts",
      fields: [
        { key: "title", name: "Title", type: "text" },
        { key: "body", name: "Body", type: "richText" },
        { key: "summary", name: "Summary", type: "longText" },
        { key: "views", name: "Views", type: "number" },
      ],
    });
    return { site, collection };
  };
  return { ok, row, setup };
}

describeMatrix("cms richText HTML stored at write", (ctx) => {
  const { ok, row, setup } = helpers(ctx);

  it("stores the renderer's HTML with the values on create, update, publish and unpublish", async () => {
    const { site, collection } = await setup();
    const created = await ok("POST", `/cms/collections/${collection.id}/items`, {
      websiteId: site.id,
      values: { title: "A", body: LONG },
    });
    let stored = await row(created.id);
    expect(stored?.draftHtml).toStrictEqual({ body: renderSafeMarkdown(LONG) });
    expect(stored?.publishedHtml).toBeNull();
    expect(created.html.body).toBe(renderSafeMarkdown(LONG));

    await ok("PATCH", `/cms/items/${created.id}`, { websiteId: site.id, values: { body: SHORT } });
    stored = await row(created.id);
    expect(stored?.draftHtml).toStrictEqual({ body: renderSafeMarkdown(SHORT) });
    expect(stored?.draftHtml?.body).toContain("&lt;script&gt;");

    await ok("POST", "/cms/items/set-published", {
      websiteId: site.id,
      itemIds: [created.id],
      published: true,
    });
    stored = await row(created.id);
    expect(stored?.publishedHtml).toStrictEqual({ body: renderSafeMarkdown(SHORT) });

    // A change to another field keeps the richText HTML (nothing rendered again).
    const before = richTextRenders();
    await ok("PATCH", `/cms/items/${created.id}`, { websiteId: site.id, values: { title: "B" } });
    expect(richTextRenders()).toBe(before);
    expect((await row(created.id))?.draftHtml).toStrictEqual({ body: renderSafeMarkdown(SHORT) });

    await ok("POST", "/cms/items/set-published", {
      websiteId: site.id,
      itemIds: [created.id],
      published: false,
    });
    expect((await row(created.id))?.publishedHtml).toBeNull();

    const bulk = await ok("POST", `/cms/collections/${collection.id}/items/bulk-create`, {
      websiteId: site.id,
      items: [{ values: { title: "C", body: LONG }, publish: true }, { values: { title: "D" } }],
    });
    const [c, d] = await Promise.all(bulk.results.map((r: { item: { id: string } }) => row(r.item.id)));
    expect(c?.draftHtml).toStrictEqual({ body: renderSafeMarkdown(LONG) });
    expect(c?.publishedHtml).toStrictEqual({ body: renderSafeMarkdown(LONG) });
    expect(d?.draftHtml).toStrictEqual({});
  });

  it("reads (get, list, query, the build snapshot) use the stored HTML and render nothing", async () => {
    const { site, collection } = await setup();
    const ids: string[] = [];
    for (const body of [LONG, SHORT, `${LONG}\n\nmore`]) {
      const item = await ok("POST", `/cms/collections/${collection.id}/items`, {
        websiteId: site.id,
        values: { title: "T", body },
        publish: true,
      });
      ids.push(item.id);
    }
    const before = richTextRenders();
    const got = await ok("GET", `/cms/items/${ids[0]}?websiteId=${site.id}`);
    expect(got.html.body).toBe(renderSafeMarkdown(LONG));
    const list = await ok("GET", `/cms/collections/${collection.id}/items?websiteId=${site.id}`);
    expect(list.items.map((i: { html: { body: string } }) => i.html.body)).toContain(
      renderSafeMarkdown(SHORT),
    );
    const query = await ok("POST", `/cms/collections/${collection.id}/items/query`, { websiteId: site.id });
    expect(query.items).toHaveLength(3);
    for (const mode of ["publish", "preview"] as const) {
      const snapshot = await ctx.t.platform.db.read((s) => readCmsSnapshot(s, site.id, mode));
      const html = snapshot.posts?.map((item) => (item.values.$html as { body: string }).body);
      expect(html).toContain(renderSafeMarkdown(`${LONG}\n\nmore`));
    }
    expect(richTextRenders()).toBe(before);
  });

  it("keeps the HTML consistent through type changes to and from richText and other conversions", async () => {
    const { site, collection } = await setup();
    const item = await ok("POST", `/cms/collections/${collection.id}/items`, {
      websiteId: site.id,
      values: { title: "T", body: SHORT, summary: LONG, views: 3 },
      publish: true,
    });
    const summary = collection.fields.find((f: { key: string }) => f.key === "summary");
    const views = collection.fields.find((f: { key: string }) => f.key === "views");
    await ok("PATCH", `/cms/fields/${summary.id}`, { websiteId: site.id, type: "richText" });
    const both = { body: renderSafeMarkdown(SHORT), summary: renderSafeMarkdown(LONG) };
    let stored = await row(item.id);
    expect(stored?.draftHtml).toStrictEqual(both);
    expect(stored?.publishedHtml).toStrictEqual(both);
    expect(stored?.version).toBe(item.version); // the values did not change

    // A conversion of another field rewrites values and keeps the HTML.
    await ok("PATCH", `/cms/fields/${views.id}`, { websiteId: site.id, type: "text" });
    stored = await row(item.id);
    expect(stored?.draftValues).toMatchObject({ views: "3" });
    expect(stored?.draftHtml).toStrictEqual(both);

    await ok("PATCH", `/cms/fields/${summary.id}`, { websiteId: site.id, type: "longText" });
    stored = await row(item.id);
    expect(stored?.draftHtml).toStrictEqual({ body: renderSafeMarkdown(SHORT) });
    expect(stored?.publishedHtml).toStrictEqual({ body: renderSafeMarkdown(SHORT) });

    // A deleted field's HTML is never shown.
    const body = collection.fields.find((f: { key: string }) => f.key === "body");
    await ok("POST", `/cms/fields/${body.id}/delete`, { websiteId: site.id });
    expect((await ok("GET", `/cms/items/${item.id}?websiteId=${site.id}`)).html).toStrictEqual({});
  });

  it("backfills rows written without HTML: reads fall back until then, one of two runs at once holds the claim", async () => {
    const { site, collection } = await setup();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      const item = await ok("POST", `/cms/collections/${collection.id}/items`, {
        websiteId: site.id,
        values: { title: `T${n}`, body: `${LONG}\n\nItem ${n}` },
        publish: n % 2 === 0,
      });
      ids.push(item.id);
    }
    // As a row written before the HTML columns: both null.
    const db = ctx.t.platform.db;
    await db.transaction(async (s) => {
      for (const id of ids) {
        const item = (await s.cms.getItem(id))!;
        await s.cms.setItemHtml(id, item.version, { draftHtml: null, publishedHtml: null });
      }
    });
    const fallback = await ok("GET", `/cms/items/${ids[1]}?websiteId=${site.id}`);
    expect(fallback.html.body).toBe(renderSafeMarkdown(`${LONG}\n\nItem 1`));

    // Two runs at once (two nodes' housekeeping): one holds the claim and stores every row in batches of 2.
    const runs = await Promise.all([backfillRichTextHtml(db, 2), backfillRichTextHtml(db, 2)]);
    expect(runs.sort()).toStrictEqual([0, 5]);
    for (const [n, id] of ids.entries()) {
      const stored = await row(id);
      const html = { body: renderSafeMarkdown(`${LONG}\n\nItem ${n}`) };
      expect(stored?.draftHtml).toStrictEqual(html);
      expect(stored?.publishedHtml).toStrictEqual(n % 2 === 0 ? html : null);
    }
    expect(await backfillRichTextHtml(db)).toBe(0);
    // The claim was given back: a later run (next housekeeping) takes rows that lost their HTML since.
    await db.transaction(async (s) => {
      const item = (await s.cms.getItem(ids[3]!))!;
      await s.cms.setItemHtml(ids[3]!, item.version, { draftHtml: null, publishedHtml: null });
    });
    expect(await backfillRichTextHtml(db)).toBe(1);
    const before = richTextRenders();
    await ok("GET", `/cms/items/${ids[1]}?websiteId=${site.id}`);
    expect(richTextRenders()).toBe(before);
  });
});
