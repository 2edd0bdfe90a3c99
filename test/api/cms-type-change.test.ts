import { expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

/** A collection with one field `v` (plus a title) and items holding the given values, on a fresh website. */
function helpers(ctx: MatrixContext) {
  let sites = 0;
  const post = (path: string, body: Record<string, unknown>) => ctx.request("POST", `/cms${path}`, { body });
  const get = (path: string, websiteId: string) => ctx.request("GET", `/cms${path}?websiteId=${websiteId}`);
  return {
    async setup(field: Record<string, unknown>, values: unknown[], options: { publish?: boolean } = {}) {
      const site = await ctx.t.createWebsite(`Types ${ctx.mode} ${++sites} ${newId().slice(-5)}`);
      if (field.type === "reference" || field.type === "references") {
        const target = await post("/collections", { websiteId: site.id, name: "Authors", slug: "authors" });
        field.referenceCollectionId = target.body.id;
      }
      const made = await post("/collections", {
        websiteId: site.id,
        name: "Things",
        slug: "things",
        fields: [
          { key: "title", name: "Title", type: "text" },
          { key: "v", name: "V", ...field },
        ],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const fieldId = made.body.fields.find((f: { key: string }) => f.key === "v").id as string;
      const items: { id: string; slug: string }[] = [];
      for (const [n, value] of values.entries()) {
        const created = await post(`/collections/${made.body.id}/items`, {
          websiteId: site.id,
          slug: `item-${n}`,
          values: { title: `Item ${n}`, v: value },
          ...(options.publish ? { publish: true } : {}),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        items.push(created.body);
      }
      const state = async () => ({
        field: (await get(`/collections/${made.body.id}/fields`, site.id)).body.items.find(
          (f: { key: string }) => f.key === "v",
        ),
        items: await Promise.all(items.map(async (item) => (await get(`/items/${item.id}`, site.id)).body)),
      });
      const change = (patch: Record<string, unknown>) =>
        ctx.request("PATCH", `/cms/fields/${fieldId}`, { body: { websiteId: site.id, ...patch } });
      return { site, collectionId: made.body.id as string, items, state, change, post };
    },
  };
}

describeMatrix("cms field type changes", (ctx) => {
  const h = helpers(ctx);

  /** Converts and returns each item's draft `v` after the change (asserting success). */
  const converts = async (
    field: Record<string, unknown>,
    values: unknown[],
    patch: Record<string, unknown>,
  ): Promise<unknown[]> => {
    const s = await h.setup(field, values);
    const response = await s.change(patch);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.type).toBe(patch.type);
    const after = await s.state();
    expect(after.field.type).toBe(patch.type);
    return after.items.map((item: { values: Record<string, unknown> }) => item.values.v);
  };

  /** Refuses the change, names the item and value, and changes nothing. */
  const refuses = async (
    field: Record<string, unknown>,
    values: unknown[],
    patch: Record<string, unknown>,
    expected: { status: number; message: RegExp },
  ) => {
    const s = await h.setup(field, values);
    const before = await s.state();
    const response = await s.change(patch);
    expect(response.status, JSON.stringify(response.body)).toBe(expected.status);
    expect(response.body.message).toMatch(expected.message);
    expect(await s.state()).toEqual(before);
    return { s, response };
  };

  it("converts between the text types and to richText", async () => {
    expect(await converts({ type: "text" }, ["One", "Two"], { type: "longText" })).toEqual(["One", "Two"]);
    expect(await converts({ type: "longText" }, ["One line"], { type: "text" })).toEqual(["One line"]);
    expect(await converts({ type: "text" }, ["Some *stars*"], { type: "richText" })).toEqual([
      "Some *stars*",
    ]);
    expect(await converts({ type: "richText" }, ["**Bold**"], { type: "longText" })).toEqual(["**Bold**"]);
    expect(await converts({ type: "text" }, ["a@example.test"], { type: "email" })).toEqual([
      "a@example.test",
    ]);
    expect(await converts({ type: "url" }, ["https://example.test/"], { type: "text" })).toEqual([
      "https://example.test/",
    ]);
    await refuses(
      { type: "longText" },
      ["fine", "two\nlines"],
      { type: "text" },
      {
        status: 409,
        message:
          /^type: field 'v' cannot change from longText to text: item '[\w-]+' \(slug 'item-1'\) has the draft value "two\\nlines" \(must be a single line/,
      },
    );
  });

  it("converts numbers to text and text to numbers when every value parses", async () => {
    expect(await converts({ type: "number" }, [42, 3.5, -1e-7], { type: "text" })).toEqual([
      "42",
      "3.5",
      "-1e-7",
    ]);
    expect(await converts({ type: "text" }, ["42", " 3.5 ", "-2"], { type: "number" })).toEqual([
      42, 3.5, -2,
    ]);
    const { s, response } = await refuses(
      { type: "text" },
      ["1", "abc"],
      { type: "number" },
      {
        status: 409,
        message:
          /^type: field 'v' cannot change from text to number: item '[\w-]+' \(slug 'item-1'\) has the draft value "abc" \(not a number\)/,
      },
    );
    expect(response.body.message).toContain(s.items[1]!.id);
    expect(response.body.suggestion).toMatch(/force: true/);
    expect(response.body.suggestion).toMatch(/cms_fields_create|cms\.fields\.create/);
    // The new rules apply to converted values: integer and range.
    await refuses(
      { type: "text" },
      ["2.5"],
      { type: "number", integer: true },
      {
        status: 409,
        message: /has the draft value "2.5" \(must be an integer\)/,
      },
    );
  });

  it("converts option and text both ways, within the new option set", async () => {
    expect(
      await converts({ type: "option", validValues: ["news", "howto"] }, ["news"], { type: "text" }),
    ).toEqual(["news"]);
    expect(
      await converts({ type: "text" }, ["news", "howto"], {
        type: "option",
        validValues: ["news", "howto", "x"],
      }),
    ).toEqual(["news", "howto"]);
    await refuses(
      { type: "text" },
      ["news", "gossip"],
      { type: "option", validValues: ["news"] },
      {
        status: 409,
        message: /has the draft value "gossip" \(is not one of the field's options\)/,
      },
    );
    const missing = await refuses(
      { type: "text" },
      ["news"],
      { type: "option" },
      {
        status: 400,
        message: /^validValues: is required for option fields/,
      },
    );
    expect(missing.response.body.kind).toBe("validation");
  });

  it("converts option and multiOption when every list holds at most one value", async () => {
    const set = { validValues: ["a", "b"] };
    expect(await converts({ type: "option", ...set }, ["a"], { type: "multiOption" })).toEqual([["a"]]);
    expect(await converts({ type: "multiOption", ...set }, [["b"], []], { type: "option" })).toEqual([
      "b",
      undefined,
    ]);
    await refuses(
      { type: "multiOption", ...set },
      [["a"], ["a", "b"]],
      { type: "option" },
      {
        status: 409,
        message: /item-1'\) has the draft value \["a","b"\] \(2 values; a option field holds one\)/,
      },
    );
  });

  it("converts slugs and text when valid, dates and date-times, booleans and text", async () => {
    expect(await converts({ type: "slug" }, ["hello-world"], { type: "text" })).toEqual(["hello-world"]);
    expect(await converts({ type: "text" }, ["hello-world"], { type: "slug" })).toEqual(["hello-world"]);
    await refuses(
      { type: "text" },
      ["Hello World"],
      { type: "slug" },
      {
        status: 409,
        message: /has the draft value "Hello World" \(must be lowercase letters/,
      },
    );
    expect(await converts({ type: "date" }, ["2026-05-01"], { type: "dateTime" })).toEqual([
      "2026-05-01T00:00:00.000Z",
    ]);
    expect(await converts({ type: "dateTime" }, ["2026-05-01T23:30:00+02:00"], { type: "date" })).toEqual([
      "2026-05-01",
    ]);
    expect(await converts({ type: "boolean" }, [true, false], { type: "text" })).toEqual(["true", "false"]);
    expect(await converts({ type: "text" }, ["true", "FALSE"], { type: "boolean" })).toEqual([true, false]);
    expect(await converts({ type: "number" }, [1, 0], { type: "boolean" })).toEqual([true, false]);
  });

  it("wraps image into images and reference into references, and unwraps lists of one", async () => {
    const url = "https://example.test/a.png";
    expect(await converts({ type: "image" }, [url], { type: "images" })).toEqual([[url]]);
    expect(await converts({ type: "images" }, [[url]], { type: "image" })).toEqual([url]);
    await refuses(
      { type: "images" },
      [[url, `${url}?2`]],
      { type: "image" },
      {
        status: 409,
        message: /\(2 values; a image field holds one\)/,
      },
    );

    const s = await h.setup({ type: "reference" }, []);
    const authors = (await ctx.request("GET", `/cms/collections?websiteId=${s.site.id}`)).body.items.find(
      (c: { slug: string }) => c.slug === "authors",
    );
    const ada = await s.post(`/collections/${authors.id}/items`, { websiteId: s.site.id, values: {} });
    const bob = await s.post(`/collections/${authors.id}/items`, { websiteId: s.site.id, values: {} });
    const item = await s.post(`/collections/${s.collectionId}/items`, {
      websiteId: s.site.id,
      values: { v: ada.body.id },
    });
    const many = await s.change({ type: "references" });
    expect(many.status, JSON.stringify(many.body)).toBe(200);
    expect(many.body).toMatchObject({ referenceCollectionId: authors.id, conversion: { itemsUpdated: 1 } });
    const got = await ctx.request("GET", `/cms/items/${item.body.id}?websiteId=${s.site.id}`);
    expect(got.body.values.v).toEqual([ada.body.id]);
    expect(got.body.version).toBe(item.body.version + 1);
    await ctx.request("PATCH", `/cms/items/${item.body.id}`, {
      body: { websiteId: s.site.id, values: { v: [ada.body.id, bob.body.id] } },
    });
    const back = await s.change({ type: "reference" });
    expect(back.status).toBe(409);
    expect(back.body.message).toMatch(/\(2 items; a reference field holds one\)/);
    expect((await s.change({ type: "text" })).body.validValues).toEqual(["reference", "references"]);
  });

  it("converts to and from json", async () => {
    expect(await converts({ type: "number" }, [7], { type: "json" })).toEqual([7]);
    expect(await converts({ type: "json" }, [7, 8], { type: "number" })).toEqual([7, 8]);
    await refuses(
      { type: "json" },
      [7, { a: 1 }],
      { type: "number" },
      {
        status: 409,
        message: /has the draft value \{"a":1\} \(must be a finite number\)/,
      },
    );
  });

  it("refuses a pair without a conversion, listing the types the field can change to", async () => {
    const { response } = await refuses(
      { type: "boolean" },
      [true],
      { type: "image" },
      {
        status: 400,
        message: /^type: field 'v' \(boolean\) cannot change to image/,
      },
    );
    expect(response.body.kind).toBe("validation");
    expect(response.body.validValues).toEqual(expect.arrayContaining(["text", "number", "json"]));
    expect(response.body.validValues).not.toContain("image");
  });

  it("converts published values apart from drafts and refuses a published value that does not convert", async () => {
    const s = await h.setup({ type: "text" }, ["10"], { publish: true });
    const id = s.items[0]!.id;
    await ctx.request("PATCH", `/cms/items/${id}`, { body: { websiteId: s.site.id, values: { v: "11" } } });
    const changed = await s.change({ type: "number" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const got = (await s.state()).items[0];
    expect(got).toMatchObject({ values: { v: 11 }, publishedValues: { v: 10 }, status: "published" });

    const bad = await h.setup({ type: "text" }, ["x"], { publish: true });
    await ctx.request("PATCH", `/cms/items/${bad.items[0]!.id}`, {
      body: { websiteId: bad.site.id, values: { v: "12" } },
    });
    const before = await bad.state();
    const refused = await bad.change({ type: "number" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/has the published value "x" \(not a number\)/);
    expect(await bad.state()).toEqual(before);
  });

  it("with force clears values that do not convert, but never a required field's draft", async () => {
    const s = await h.setup({ type: "text" }, ["1", "abc", "3"]);
    const forced = await s.change({ type: "number", force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    expect(forced.body.conversion).toEqual({ itemsUpdated: 3, valuesCleared: 1 });
    expect((await s.state()).items.map((i: { values: { v?: unknown } }) => i.values.v)).toEqual([
      1,
      undefined,
      3,
    ]);
    await refuses(
      { type: "text", required: true },
      ["1", "abc"],
      { type: "number", force: true },
      {
        status: 409,
        message: /^type: field 'v' is required, so force cannot clear .*"abc"/,
      },
    );
  });

  it("validates existing values when a field turns required or unique", async () => {
    const { s } = await refuses(
      { type: "text" },
      ["a", null],
      { required: true },
      {
        status: 409,
        message: /^required: field 'v' has no value on item '[\w-]+' \(slug 'item-1'\)/,
      },
    );
    await ctx.request("PATCH", `/cms/items/${s.items[1]!.id}`, {
      body: { websiteId: s.site.id, values: { v: "b" } },
    });
    expect((await s.change({ required: true })).body.required).toBe(true);

    const dup = await refuses(
      { type: "text" },
      ["same", "other", "same"],
      { unique: true },
      {
        status: 409,
        message:
          /^unique: field 'v' has the draft value "same" on both item '[\w-]+' \(slug 'item-0'\) and item '[\w-]+' \(slug 'item-2'\)/,
      },
    );
    expect(dup.response.body.kind).toBe("conflict");
    // A type change can make values equal: two date-times of one day become one date.
    await refuses(
      { type: "dateTime", unique: true },
      ["2026-05-01T08:00:00Z", "2026-05-01T20:00:00Z"],
      { type: "date" },
      {
        status: 409,
        message: /^unique: field 'v' has the draft value "2026-05-01"/,
      },
    );
    expect((await (await h.setup({ type: "text" }, ["x", "y"])).change({ unique: true })).status).toBe(200);
  });

  it("converts the default and drops validations that no longer apply", async () => {
    const s = await h.setup({ type: "text", defaultValue: "5", validations: { maxLength: 10 } }, ["7"]);
    const changed = await s.change({ type: "number" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ type: "number", defaultValue: 5, validations: {}, integer: false });

    await refuses(
      { type: "text", defaultValue: "five" },
      ["7"],
      { type: "number" },
      {
        status: 400,
        message: /^defaultValue: the current default "five" of field 'v' does not convert to number/,
      },
    );
    const replaced = await (await h.setup({ type: "text", defaultValue: "five" }, ["7"])).change({
      type: "number",
      defaultValue: 5,
    });
    expect(replaced.body).toMatchObject({ type: "number", defaultValue: 5 });
  });
});
