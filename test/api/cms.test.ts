import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

function helpers(ctx: MatrixContext) {
  let sites = 0;
  const qs = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    ).toString();
  const h = {
    site: () => ctx.t.createWebsite(`CMS ${ctx.mode} ${++sites} ${newId().slice(-5)}`),
    post: (path: string, body: Record<string, unknown>, key?: string) =>
      ctx.request("POST", `/cms${path}`, { body, ...(key ? { key } : {}) }),
    patch: (path: string, body: Record<string, unknown>, key?: string) =>
      ctx.request("PATCH", `/cms${path}`, { body, ...(key ? { key } : {}) }),
    get: (path: string, params: Record<string, string | number | undefined>, key?: string) =>
      ctx.request("GET", `/cms${path}?${qs(params)}`, key ? { key } : {}),
    /** A collection with title (required text), body (richText), date, category (option), views (integer). */
    blog: async (websiteId: string, extra: Record<string, unknown>[] = []) => {
      const response = await h.post("/collections", {
        websiteId,
        name: "Blog",
        slug: "blog",
        fields: [
          { key: "title", name: "Title", type: "text", required: true, validations: { maxLength: 80 } },
          { key: "body", name: "Body", type: "richText" },
          { key: "date", name: "Date", type: "date" },
          { key: "category", name: "Category", type: "option", validValues: ["news", "howto"] },
          { key: "views", name: "Views", type: "number", integer: true, validations: { min: 0 } },
          ...extra,
        ],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as { id: string; fields: { id: string; key: string }[] };
    },
    item: async (websiteId: string, collectionId: string, values: Record<string, unknown>, extra = {}) => {
      const response = await h.post(`/collections/${collectionId}/items`, { websiteId, values, ...extra });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    },
  };
  return h;
}

describeMatrix("cms", (ctx) => {
  const h = helpers(ctx);

  it("creates, lists, gets, updates and deletes collections with their fields", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    expect(blog).toMatchObject({ websiteId: site.id, slug: "blog", name: "Blog", description: "" });
    expect(blog.fields.map((f) => f.key)).toEqual(["title", "body", "date", "category", "views"]);
    const got = await h.get(`/collections/${blog.id}`, { websiteId: site.id });
    expect(got.status).toBe(200);
    expect(got.body.fields[3]).toMatchObject({
      key: "category",
      type: "option",
      validValues: ["news", "howto"],
    });
    expect(got.body.fields[4]).toMatchObject({ key: "views", integer: true, validations: { min: 0 } });

    const generated = await h.post("/collections", { websiteId: site.id, name: "Blog" });
    expect(generated.body.slug).toBe("blog-2");
    const list = await h.get("/collections", { websiteId: site.id });
    expect(list.body.items.map((c: { slug: string }) => c.slug)).toEqual(["blog", "blog-2"]);

    const dup = await h.post("/collections", { websiteId: site.id, name: "Other", slug: "blog" });
    expect(dup.status).toBe(409);
    expect(dup.body.kind).toBe("conflict");

    const renamed = await h.patch(`/collections/${blog.id}`, { websiteId: site.id, name: "Journal" });
    expect(renamed.body).toMatchObject({ name: "Journal", slug: "blog" });
    const clash = await h.patch(`/collections/${generated.body.id}`, { websiteId: site.id, slug: "blog" });
    expect(clash.status).toBe(409);

    const deleted = await h.post(`/collections/${generated.body.id}/delete`, { websiteId: site.id });
    expect(deleted.body).toMatchObject({ id: generated.body.id, deleted: true });
    expect((await h.get(`/collections/${generated.body.id}`, { websiteId: site.id })).status).toBe(404);
  });

  it("caps collections per website at 40 and fields per collection at 60, saying the number", async () => {
    const site = await h.site();
    await ctx.t.platform.db.transaction(async (s) => {
      for (let i = 0; i < 40; i++) {
        await s.cms.insertCollection({
          id: newId(),
          websiteId: site.id,
          slug: `c${i}`,
          name: `C${i}`,
          description: "",
          createdAt: 1,
          updatedAt: 1,
        });
      }
    });
    const full = await h.post("/collections", { websiteId: site.id, name: "One more" });
    expect(full.status).toBe(409);
    expect(full.body.message).toContain("40");

    const other = await h.site();
    const tooMany = Array.from({ length: 61 }, (_, i) => ({ key: `f${i}`, name: `F${i}`, type: "text" }));
    const refused = await h.post("/collections", { websiteId: other.id, name: "Wide", fields: tooMany });
    expect(refused.status).toBe(400);
    const wide = await h.post("/collections", {
      websiteId: other.id,
      name: "Wide",
      fields: tooMany.slice(0, 60),
    });
    expect(wide.status).toBe(200);
    const sixtyFirst = await h.post(`/collections/${wide.body.id}/fields`, {
      websiteId: other.id,
      key: "extra",
      name: "Extra",
      type: "text",
    });
    expect(sixtyFirst.status).toBe(409);
    expect(sixtyFirst.body.message).toContain("60");
  });

  it("validates field definitions: unique keys, reserved keys, settings that fit the type", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    const add = (body: Record<string, unknown>) =>
      h.post(`/collections/${blog.id}/fields`, { websiteId: site.id, name: "X", ...body });
    expect((await add({ key: "title", type: "text" })).status).toBe(409);
    const reserved = await add({ key: "slug", type: "text" });
    expect(reserved.status).toBe(400);
    expect(reserved.body.message).toMatch(/^key: 'slug' is reserved/);
    const noOptions = await add({ key: "tags", type: "multiOption" });
    expect(noOptions.body.message).toMatch(/^validValues: is required/);
    const badType = await add({ key: "kind", type: "colour" });
    expect(badType.status).toBe(400);
    expect(badType.body.validValues).toContain("color");
    expect((await add({ key: "n", type: "text", validations: { min: 1 } })).status).toBe(400);
    expect((await add({ key: "p", type: "text", validations: { pattern: "(" } })).body.message).toMatch(
      /^validations.pattern/,
    );
    const badDefault = await add({ key: "level", type: "option", validValues: ["a"], defaultValue: "b" });
    expect(badDefault.body.message).toMatch(/^defaultValue:/);

    const foreign = await h.site();
    const foreignBlog = await h.blog(foreign.id);
    const crossSite = await add({ key: "related", type: "reference", referenceCollectionId: foreignBlog.id });
    expect(crossSite.status).toBe(400);
    expect(crossSite.body.message).toMatch(
      /^referenceCollectionId: must be a collection of the same website/,
    );

    const tags = await add({ key: "tags", type: "multiOption", validValues: ["a", "b"], helpText: "Tags" });
    expect(tags.body).toMatchObject({ key: "tags", validValues: ["a", "b"], position: 5 });
    const updated = await h.patch(`/fields/${tags.body.id}`, {
      websiteId: site.id,
      validValues: ["a", "b", "c"],
    });
    expect(updated.body.validValues).toEqual(["a", "b", "c"]);
    // A type without a conversion is refused (cms-type-change.test.ts covers conversions).
    const typeChange = await h.patch(`/fields/${tags.body.id}`, { websiteId: site.id, type: "number" });
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.message).toMatch(/^type: field 'tags' \(multiOption\) cannot change to number/);
    expect(typeChange.body.validValues).toContain("option");
    const sameType = await h.patch(`/fields/${tags.body.id}`, {
      websiteId: site.id,
      type: "multiOption",
      name: "Labels",
    });
    expect(sameType.body).toMatchObject({ name: "Labels", validValues: ["a", "b", "c"] });
    expect((await h.post(`/fields/${tags.body.id}/delete`, { websiteId: site.id })).body.deleted).toBe(true);
    const fields = await h.get(`/collections/${blog.id}/fields`, { websiteId: site.id });
    expect(fields.body.items).toHaveLength(5);
  });

  it("validates every item value against its field, naming the field", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id, [
      { key: "email", name: "Email", type: "email", unique: true },
      { key: "color", name: "Color", type: "color" },
      { key: "when", name: "When", type: "dateTime" },
      { key: "cover", name: "Cover", type: "image" },
      { key: "meta", name: "Meta", type: "json" },
    ]);
    const create = (values: Record<string, unknown>, extra = {}) =>
      h.post(`/collections/${blog.id}/items`, { websiteId: site.id, values, ...extra });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ body: "no title" }, /^values\.title: is required/],
      [{ title: 42 }, /^values\.title: must be a string/],
      [{ title: "x".repeat(81) }, /^values\.title: must be at most 80 characters/],
      [{ title: "a\nb" }, /^values\.title: must be a single line/],
      [{ title: "t", views: 1.5 }, /^values\.views: must be an integer/],
      [{ title: "t", views: -1 }, /^values\.views: must be at least 0/],
      [{ title: "t", views: "3" }, /^values\.views: must be a finite number/],
      [{ title: "t", date: "2026-02-30" }, /^values\.date: must be a date/],
      [{ title: "t", when: "yesterday" }, /^values\.when: must be an ISO 8601/],
      [{ title: "t", email: "nope" }, /^values\.email: must be an email/],
      [{ title: "t", color: "red" }, /^values\.color: must be a hex color/],
      [
        { title: "t", cover: "javascript:alert(1)" },
        /^values\.cover: must be an asset id or an absolute http/,
      ],
      [{ title: "t", nope: 1 }, /^values\.nope: is not a field of this collection/],
    ];
    for (const [values, message] of cases) {
      const response = await create(values);
      expect(response.status, JSON.stringify(values)).toBe(400);
      expect(response.body.kind).toBe("validation");
      expect(response.body.message).toMatch(message);
    }
    const option = await create({ title: "t", category: "gossip" });
    expect(option.status).toBe(400);
    expect(option.body.message).toMatch(/^values\.category: is not one of the field's options/);
    expect(option.body.validValues).toEqual(["news", "howto"]);
    const unknownKey = await create({ title: "t", nope: 1 });
    expect(unknownKey.body.validValues).toContain("title");

    const ok = await create({
      title: "Hello",
      when: "2026-05-01T09:30:00+02:00",
      email: "a@example.test",
      color: "#ff0000",
      cover: "https://example.test/a.png",
      meta: { a: [1, "two", null] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.values).toEqual({
      title: "Hello",
      when: "2026-05-01T07:30:00.000Z",
      email: "a@example.test",
      color: "#ff0000",
      cover: "https://example.test/a.png",
      meta: { a: [1, "two", null] },
    });
    const duplicate = await create({ title: "Other", email: "a@example.test" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.message).toMatch(/^values\.email: another item already has this value/);
  });

  it("generates slugs from the title, suffixes collisions and refuses a duplicate given slug", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    const a = await h.item(site.id, blog.id, { title: "Hello, World!" });
    const b = await h.item(site.id, blog.id, { title: "Hello world" });
    expect([a.slug, b.slug]).toEqual(["hello-world", "hello-world-2"]);
    const dup = await h.post(`/collections/${blog.id}/items`, {
      websiteId: site.id,
      slug: "hello-world",
      values: { title: "x" },
    });
    expect(dup.status).toBe(409);
    const badSlug = await h.post(`/collections/${blog.id}/items`, {
      websiteId: site.id,
      slug: "Not A Slug",
      values: { title: "x" },
    });
    expect(badSlug.status).toBe(400);
    expect(badSlug.body.message).toMatch(/^slug:/);
  });

  it("keeps draft and published values apart, with versions for optimistic concurrency", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    const post = await h.item(site.id, blog.id, { title: "First", body: "Hello *there*" });
    expect(post).toMatchObject({ status: "draft", version: 1, publishedValues: null, publishedAt: null });
    expect(post.html.body).toBe("<p>Hello <em>there</em></p>\n");

    const published = await h.post("/items/set-published", {
      websiteId: site.id,
      itemIds: [post.id],
      published: true,
    });
    expect(published.status).toBe(200);
    const live = published.body.items[0];
    expect(live).toMatchObject({ status: "published", version: 2, hasUnpublishedChanges: false });
    expect(live.publishedValues).toEqual({ title: "First", body: "Hello *there*" });

    const stale = await h.patch(`/items/${post.id}`, {
      websiteId: site.id,
      values: { title: "X" },
      expectedVersion: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.kind).toBe("conflict");
    const edited = await h.patch(`/items/${post.id}`, {
      websiteId: site.id,
      values: { title: "Second", body: null },
      expectedVersion: 2,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ status: "published", version: 3, hasUnpublishedChanges: true });
    expect(edited.body.values).toEqual({ title: "Second" });
    expect(edited.body.publishedValues).toEqual({ title: "First", body: "Hello *there*" });

    const publishedList = await h.get(`/collections/${blog.id}/items`, {
      websiteId: site.id,
      status: "published",
    });
    expect(publishedList.body.items.map((i: { id: string }) => i.id)).toEqual([post.id]);
    const unpublished = await h.post("/items/set-published", {
      websiteId: site.id,
      itemIds: [post.id],
      published: false,
    });
    expect(unpublished.body.items[0]).toMatchObject({
      status: "draft",
      publishedValues: null,
      publishedAt: null,
    });
    expect(
      (await h.get(`/collections/${blog.id}/items`, { websiteId: site.id, status: "published" })).body.items,
    ).toEqual([]);

    const missing = await h.post("/items/set-published", {
      websiteId: site.id,
      itemIds: [post.id, newId()],
      published: true,
    });
    expect(missing.status).toBe(404);
    expect((await h.get(`/items/${post.id}`, { websiteId: site.id })).body.status).toBe("draft");

    expect((await h.post(`/items/${post.id}/delete`, { websiteId: site.id })).body.deleted).toBe(true);
    expect((await h.get(`/items/${post.id}`, { websiteId: site.id })).status).toBe(404);
  });

  it("renders richText as safe HTML: raw HTML escaped, script URLs neutralized", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    const post = await h.item(site.id, blog.id, {
      title: "XSS",
      body: '<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror="alert(1)">',
    });
    expect(post.html.body).not.toMatch(/<script|<img|javascript:/i);
    expect(post.html.body).toContain("&lt;script&gt;");
    expect(post.html.body).not.toContain("href");
    expect(post.html.body).toContain("x");
  });

  it("pages items with a cursor and filters by status", async () => {
    const site = await h.site();
    const blog = await h.blog(site.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.item(site.id, blog.id, { title: `Post ${i}` })).id);
    await h.post("/items/set-published", { websiteId: site.id, itemIds: [ids[1], ids[3]], published: true });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.get(`/collections/${blog.id}/items`, { websiteId: site.id, limit: 2, cursor });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    const drafts = await h.get(`/collections/${blog.id}/items`, { websiteId: site.id, status: "draft" });
    expect(drafts.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[2], ids[4]]);
    const bad = await h.get(`/collections/${blog.id}/items`, { websiteId: site.id, cursor: "garbage" });
    expect(bad.status).toBe(400);
  });

  it("checks references: items of the referenced collection of the same website only", async () => {
    const site = await h.site();
    const authors = await h.post("/collections", {
      websiteId: site.id,
      name: "Authors",
      fields: [{ key: "name", name: "Name", type: "text", required: true }],
    });
    const blog = await h.blog(site.id, [
      { key: "author", name: "Author", type: "reference", referenceCollectionId: authors.body.id },
      { key: "coauthors", name: "Co-authors", type: "references", referenceCollectionId: authors.body.id },
    ]);
    const ada = await h.item(site.id, authors.body.id, { name: "Ada" });
    const post = await h.item(site.id, blog.id, { title: "By Ada", author: ada.id, coauthors: [ada.id] });
    expect(post.values.author).toBe(ada.id);

    const foreign = await h.site();
    const foreignAuthors = await h.post("/collections", {
      websiteId: foreign.id,
      name: "Authors",
      fields: [{ key: "name", name: "Name", type: "text" }],
    });
    const stranger = await h.item(foreign.id, foreignAuthors.body.id, { name: "Stranger" });
    const cross = await h.post(`/collections/${blog.id}/items`, {
      websiteId: site.id,
      values: { title: "x", author: stranger.id },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.message).toMatch(/^values\.author: '.+' is not an item of the referenced collection/);
    const wrongCollection = await h.post(`/collections/${blog.id}/items`, {
      websiteId: site.id,
      values: { title: "x", coauthors: [post.id] },
    });
    expect(wrongCollection.body.message).toMatch(/^values\.coauthors:/);

    const refused = await h.post(`/collections/${authors.body.id}/delete`, { websiteId: site.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("author");
    const forced = await h.post(`/collections/${authors.body.id}/delete`, {
      websiteId: site.id,
      force: true,
    });
    expect(forced.status).toBe(200);
    expect(forced.body.deletedReferenceFieldIds).toHaveLength(2);
    const after = await h.get(`/items/${post.id}`, { websiteId: site.id });
    expect(after.body.values).toEqual({ title: "By Ada" });
  });

  it("answers 403 to roles without the capability and 404 for other websites' collections and items", async () => {
    const site = await h.site();
    const other = await h.site();
    const blog = await h.blog(site.id);
    const post = await h.item(site.id, blog.id, { title: "Mine" });
    const content = await ctx.t.createKey({
      kind: "websites",
      websiteIds: [site.id],
      role: "content_editor",
    });
    const key = content.plaintextKey;

    const createCollection = await h.post("/collections", { websiteId: site.id, name: "Nope" }, key);
    expect(createCollection.status).toBe(403);
    const addField = await h.post(
      `/collections/${blog.id}/fields`,
      { websiteId: site.id, key: "x", name: "X", type: "text" },
      key,
    );
    expect(addField.status).toBe(403);
    expect((await h.post(`/collections/${blog.id}/delete`, { websiteId: site.id }, key)).status).toBe(403);

    expect((await h.get(`/collections/${blog.id}`, { websiteId: site.id }, key)).status).toBe(200);
    const created = await h.post(
      `/collections/${blog.id}/items`,
      { websiteId: site.id, values: { title: "By editor" } },
      key,
    );
    expect(created.status).toBe(200);
    expect(
      (
        await h.post(
          "/items/set-published",
          { websiteId: site.id, itemIds: [created.body.id], published: true },
          key,
        )
      ).status,
    ).toBe(200);

    // The collection and item exist, but not in `other`: not_found, as for missing ones.
    expect((await h.get(`/collections/${blog.id}`, { websiteId: other.id })).status).toBe(404);
    expect((await h.get(`/collections/${blog.id}/items`, { websiteId: other.id })).status).toBe(404);
    expect((await h.get(`/items/${post.id}`, { websiteId: other.id })).status).toBe(404);
    expect((await h.patch(`/items/${post.id}`, { websiteId: other.id, values: { title: "x" } })).status).toBe(
      404,
    );
    expect((await h.post(`/items/${post.id}/delete`, { websiteId: other.id })).status).toBe(404);
    expect(
      (await h.post("/items/set-published", { websiteId: other.id, itemIds: [post.id], published: true }))
        .status,
    ).toBe(404);
    // A key scoped to `site` cannot reach `other` at all.
    expect((await h.get("/collections", { websiteId: other.id }, key)).status).toBe(404);
  });
});
