import sharp from "sharp";
import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";

const png = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();

/** CMS asset fields (image, images, file): an asset id must name an asset of the item's own website. */
describeMatrix("cms asset values", (ctx) => {
  let n = 0;
  const upload = async (websiteId: string) => {
    const response = await ctx.fetch(`/v1/websites/${websiteId}/assets?name=a.png`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
        "content-type": "application/octet-stream",
      },
      body: new Uint8Array(await png()),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string };
  };
  const setup = async () => {
    const site = await ctx.t.createWebsite(`cms-assets-${ctx.mode}-${++n}`);
    const collection = await ctx.request("POST", "/cms/collections", {
      body: {
        websiteId: site.id,
        name: "Gallery",
        fields: [
          { key: "title", name: "Title", type: "text" },
          { key: "cover", name: "Cover", type: "image" },
          { key: "photos", name: "Photos", type: "images" },
          { key: "brochure", name: "Brochure", type: "file" },
        ],
      },
    });
    expect(collection.status).toBe(200);
    return { site, collection: collection.body as { id: string } };
  };
  const count = async (websiteId: string, collectionId: string) =>
    (await ctx.request("GET", `/cms/collections/${collectionId}/items?websiteId=${websiteId}`)).body.items
      .length;

  it("accepts the website's assets and URLs, refuses unknown ids and other websites' assets naming the field", async () => {
    const { site, collection } = await setup();
    const other = await setup();
    const mine = await upload(site.id);
    const theirs = await upload(other.site.id);
    const create = (values: Record<string, unknown>) =>
      ctx.request("POST", `/cms/collections/${collection.id}/items`, {
        body: { websiteId: site.id, values },
      });

    const ok = await create({
      title: "Fine",
      cover: mine.id,
      photos: [mine.id, "https://example.test/p.jpg"],
      brochure: "https://example.test/b.pdf",
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    for (const [values, key, id] of [
      [{ cover: newId() }, "cover", undefined],
      [{ cover: theirs.id }, "cover", theirs.id],
      [{ photos: [mine.id, theirs.id] }, "photos", theirs.id],
      [{ brochure: newId() }, "brochure", undefined],
    ] as const) {
      const refused = await create({ title: "Bad", ...values });
      expect(refused.status).toBe(400);
      expect(refused.body.kind).toBe("validation");
      expect(refused.body.message).toMatch(
        new RegExp(`^values\\.${key}: '.+' is not an asset of this website\\.$`),
      );
      if (id) expect(refused.body.message).toContain(id);
      expect(refused.body.suggestion).toMatch(/assets\.list|assets_list/);
      expect(refused.body.suggestion).toMatch(/assets\.upload|assets_upload/);
    }
    expect(await count(site.id, collection.id)).toBe(1);

    // Updates and bulk creates check the same way; a refused one writes nothing.
    const update = await ctx.request("PATCH", `/cms/items/${ok.body.id}`, {
      body: { websiteId: site.id, values: { cover: theirs.id } },
    });
    expect(update.status).toBe(400);
    expect(update.body.message).toMatch(/^values\.cover:/);
    const bulk = await ctx.request("POST", `/cms/collections/${collection.id}/items/bulk-create`, {
      body: {
        websiteId: site.id,
        items: [{ values: { title: "A", cover: mine.id } }, { values: { title: "B", cover: newId() } }],
      },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false]);
    expect(bulk.body.results[1].error.message).toMatch(/^values\.cover:/);
    const got = await ctx.request("GET", `/cms/items/${ok.body.id}?websiteId=${site.id}`);
    expect(got.body.values.cover).toBe(mine.id);
    expect(await count(site.id, collection.id)).toBe(2);
  });

  it("a field converted to an asset type keeps only the website's asset ids: others refuse the change, or force clears them", async () => {
    const site = await ctx.t.createWebsite(`cms-assets-convert-${ctx.mode}-${++n}`);
    const mine = await upload(site.id);
    const theirs = await upload((await setup()).site.id);
    const created = await ctx.request("POST", "/cms/collections", {
      body: {
        websiteId: site.id,
        name: "Posts",
        fields: [
          { key: "title", name: "Title", type: "text" },
          { key: "picture", name: "Picture", type: "text" },
        ],
      },
    });
    const collection = created.body as { id: string; fields: { id: string; key: string }[] };
    const picture = collection.fields.find((field) => field.key === "picture")!;
    const values = [mine.id, "https://example.test/p.jpg", theirs.id, newId()];
    const items: { id: string; slug: string }[] = [];
    for (const [i, value] of values.entries()) {
      const item = await ctx.request("POST", `/cms/collections/${collection.id}/items`, {
        body: { websiteId: site.id, values: { title: `Post ${i}`, picture: value } },
      });
      expect(item.status, JSON.stringify(item.body)).toBe(200);
      items.push(item.body);
    }
    // The third item is also published with the foreign id: published values are checked too.
    const published = await ctx.request("POST", "/cms/items/set-published", {
      body: { websiteId: site.id, itemIds: [items[2]!.id], published: true },
    });
    expect(published.status).toBe(200);
    const convert = (force?: boolean) =>
      ctx.request("PATCH", `/cms/fields/${picture.id}`, {
        body: { websiteId: site.id, type: "image", ...(force ? { force } : {}) },
      });
    const picturesOf = async () =>
      Promise.all(
        items.map(
          async (item) =>
            (await ctx.request("GET", `/cms/items/${item.id}?websiteId=${site.id}`)).body.values.picture,
        ),
      );

    const refused = await convert();
    expect(refused.status).toBe(409);
    expect(refused.body.kind).toBe("conflict");
    expect(refused.body.message).toBe(
      `type: field 'picture' cannot change from text to image: item '${items[2]!.id}' (slug '${items[2]!.slug}') has the draft value "${theirs.id}" ('${theirs.id}' is not an asset of this website). Nothing was changed.`,
    );
    expect(refused.body.suggestion).toMatch(/assets\.list|assets_list/);
    expect(refused.body.suggestion).toMatch(/force: true/);
    // Nothing changed: the field is still text and every value is as it was.
    const fields = await ctx.request("GET", `/cms/collections/${collection.id}?websiteId=${site.id}`);
    expect(fields.body.fields.find((field: { key: string }) => field.key === "picture").type).toBe("text");
    expect(await picturesOf()).toEqual(values);

    const forced = await convert(true);
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(forced.body.type).toBe("image");
    // The foreign id (draft and published) and the unknown id are cleared; the asset and the URL stay.
    expect(forced.body.conversion).toEqual({ itemsUpdated: 2, valuesCleared: 3 });
    expect(await picturesOf()).toEqual([mine.id, values[1], undefined, undefined]);
  });

  it("a field converted to an asset type needs a default naming the website's asset: another refuses the change, or force drops it", async () => {
    const site = await ctx.t.createWebsite(`cms-assets-default-${ctx.mode}-${++n}`);
    const mine = await upload(site.id);
    const theirs = await upload((await setup()).site.id);
    const created = await ctx.request("POST", "/cms/collections", {
      body: {
        websiteId: site.id,
        name: "Pages",
        fields: [
          { key: "title", name: "Title", type: "text" },
          { key: "banner", name: "Banner", type: "text", defaultValue: theirs.id },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const banner = (created.body as { fields: { id: string; key: string }[] }).fields.find(
      (field) => field.key === "banner",
    )!;
    const convert = (body: Record<string, unknown>) =>
      ctx.request("PATCH", `/cms/fields/${banner.id}`, {
        body: { websiteId: site.id, type: "image", ...body },
      });
    const bannerField = async () =>
      (await ctx.request("GET", `/cms/collections/${created.body.id}?websiteId=${site.id}`)).body.fields.find(
        (field: { key: string }) => field.key === "banner",
      );

    // The kept default and one passed in the same call are checked like item values (no item exists).
    for (const [body, value] of [
      [{}, theirs.id],
      [{ defaultValue: newId() }, undefined],
    ] as const) {
      const refused = await convert(body);
      expect(refused.status).toBe(409);
      expect(refused.body.kind).toBe("conflict");
      const id = value ?? (body as { defaultValue: string }).defaultValue;
      expect(refused.body.message).toBe(
        `type: field 'banner' cannot change from text to image: its default value "${id}" ('${id}' is not an asset of this website). Nothing was changed.`,
      );
      expect(refused.body.suggestion).toMatch(/assets\.list|assets_list/);
      expect(refused.body.suggestion).toMatch(/force: true/);
      expect(await bannerField()).toMatchObject({ type: "text", defaultValue: theirs.id });
    }

    const forced = await convert({ force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(forced.body).toMatchObject({ type: "image", defaultValue: null });
    expect(await bannerField()).toMatchObject({ type: "image", defaultValue: null });

    // The website's own asset (or a URL) converts and stays the default.
    const back = await ctx.request("PATCH", `/cms/fields/${banner.id}`, {
      body: { websiteId: site.id, type: "text", defaultValue: mine.id },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const kept = await convert({});
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body).toMatchObject({ type: "image", defaultValue: mine.id });
  });
});
