import { expect, it, vi } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { MAX_JSON_DEPTH } from "../../src/kernel/json-depth.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";
import { atOnceBound, timed } from "../support/timing.ts";

/** `levels` arrays nested in each other around `inner`. */
const nestedArrays = (levels: number, inner: unknown = 1): unknown => {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};
/** JSON text nested `levels` deep (too deep for JSON.stringify's own recursion). */
const deepArraysJson = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
const deepObjectsJson = (levels: number) => `${'{"a":'.repeat(levels)}"leaf"${"}".repeat(levels)}`;

function helpers(ctx: MatrixContext) {
  return {
    site: () => ctx.t.createWebsite(`Untrusted ${ctx.mode} ${newId().slice(-6)}`),
    collection: async (websiteId: string, fields: Record<string, unknown>[]) => {
      const response = await ctx.request("POST", "/cms/collections", {
        body: { websiteId, name: "Things", fields },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as { id: string; fields: { id: string; key: string }[] };
    },
    createItem: (websiteId: string, collectionId: string, values: unknown) =>
      ctx.request("POST", `/cms/collections/${collectionId}/items`, { body: { websiteId, values } }),
    query: (websiteId: string, collectionId: string, body: Record<string, unknown>) =>
      ctx.request("POST", `/cms/collections/${collectionId}/items/query`, { body: { websiteId, ...body } }),
    itemCount: async (websiteId: string, collectionId: string) => {
      const list = await ctx.request("GET", `/cms/collections/${collectionId}/items?websiteId=${websiteId}`);
      return (list.body.items as unknown[]).length;
    },
  };
}

describeMatrix("untrusted input", (ctx) => {
  const h = helpers(ctx);

  it("runs validations.pattern on RE2: catastrophic patterns answer at once, in linear time", async () => {
    const site = await h.site();
    const patterns = ["^(a+)+$", "^(a|aa)+$", "^(.*a){12}$", "^(\\w+\\s?)+$"];
    const things = await h.collection(
      site.id,
      patterns.map((pattern, i) => ({ key: `p${i}`, name: `P${i}`, type: "text", validations: { pattern } })),
    );
    const attacks = [
      "a".repeat(26) + "!",
      "a".repeat(5_000) + "!",
      `${"a".repeat(3_000)}b`,
      `${"ab ".repeat(3_000)}!`,
    ];
    // A short value refused by the same patterns: what "at once" costs on this machine in this run.
    const baseline = await timed(() => h.createItem(site.id, things.id, { p0: "b!" }));
    expect(baseline.value.status).toBe(400);
    for (const [i, attack] of attacks.entries()) {
      const { value: refused, ms } = await timed(() =>
        h.createItem(site.id, things.id, { [`p${i}`]: attack }),
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ kind: "validation" });
      expect(refused.body.message).toMatch(new RegExp(`^values\\.p${i}: must match the pattern`));
      expect(ms).toBeLessThan(atOnceBound(baseline.ms, 5_000));
    }
    expect(await h.itemCount(site.id, things.id)).toBe(0);
    const fine = await h.createItem(site.id, things.id, {
      p0: "aaaa",
      p1: "aaa",
      p2: "a".repeat(12),
      p3: "ab cd",
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
  });

  it("refuses patterns RE2 cannot take (backreferences, lookaround) when a field is created or updated", async () => {
    const site = await h.site();
    const things = await h.collection(site.id, [{ key: "code", name: "Code", type: "text" }]);
    for (const pattern of ["(a)\\1", "^(?=a)a", "a(?!b)", "(?<=a)b", "(?<!a)b"]) {
      const created = await ctx.request("POST", "/cms/collections", {
        body: {
          websiteId: site.id,
          name: "Other",
          fields: [{ key: "code", name: "Code", type: "text", validations: { pattern } }],
        },
      });
      expect(created.status).toBe(400);
      expect(created.body.kind).toBe("validation");
      expect(created.body.message).toMatch(/^fields\[0\]\.validations\.pattern: RE2 cannot take it/);
      expect(created.body.suggestion).toMatch(/backreferences/);
      const updated = await ctx.request("PATCH", `/cms/fields/${things.fields[0]!.id}`, {
        body: { websiteId: site.id, validations: { pattern } },
      });
      expect(updated.status).toBe(400);
      expect(updated.body.message).toMatch(/^validations\.pattern: RE2 cannot take it/);
    }
    const listed = await ctx.request("GET", `/cms/collections?websiteId=${site.id}`);
    expect(listed.body.items).toHaveLength(1);
    const field = await ctx.request("GET", `/cms/collections/${things.id}?websiteId=${site.id}`);
    expect(field.body.fields[0].validations).toEqual({});
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels on REST and the dashboard API, naming the path`, async () => {
    const site = await h.site();
    const things = await h.collection(site.id, [{ key: "data", name: "Data", type: "json" }]);
    // The body is level 1, values 2, data 3: data may hold 62 levels of arrays (levels 3 to 64).
    const deepest = nestedArrays(MAX_JSON_DEPTH - 2, "x");
    const stored = await h.createItem(site.id, things.id, { data: deepest });
    expect(stored.status, JSON.stringify(stored.body).slice(0, 300)).toBe(200);
    expect(stored.body.values.data).toEqual(deepest);

    const cases: { data: string; path: RegExp }[] = [
      { data: deepArraysJson(10_000), path: /^values\.data(\[0\]){62}: nested deeper than 64 levels\.$/ },
      { data: JSON.stringify(nestedArrays(MAX_JSON_DEPTH - 1)), path: /^values\.data(\[0\]){62}:/ },
      { data: deepObjectsJson(10_000), path: /^values\.data(\.a){62}:/ },
    ];
    const bodyOf = (data: string) => `{"websiteId":"${site.id}","values":{"data":${data}}}`;
    const routes = [
      (data: string) => ctx.request("POST", `/cms/collections/${things.id}/items`, { body: bodyOf(data) }),
      (data: string) =>
        ctx
          .fetch(`/app-api/v1/cms/collections/${things.id}/items`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
              "content-type": "application/json",
            },
            body: bodyOf(data),
          })
          .then(async (response) => ({ status: response.status, body: await response.json() })),
    ];
    for (const route of routes) {
      for (const { data, path } of cases) {
        const refused = await route(data);
        expect(refused.status).toBe(400);
        expect(refused.body.kind).toBe("validation");
        expect(refused.body.message).toMatch(path);
        expect(refused.body.suggestion).toMatch(/at most 64 levels/);
      }
    }
    const filter = await ctx.request("POST", `/cms/collections/${things.id}/items/query`, {
      body: `{"websiteId":"${site.id}","filter":{"field":"data","op":"eq","value":${deepArraysJson(10_000)}}}`,
    });
    expect(filter.status).toBe(400);
    expect(filter.body.message).toMatch(/^filter\.value(\[0\])+: nested deeper than 64 levels/);
    expect(await h.itemCount(site.id, things.id)).toBe(1);
  });

  it("refuses deep JSON over MCP before the call runs, naming the path", async () => {
    const site = await h.site();
    const things = await h.collection(site.id, [{ key: "data", name: "Data", type: "json" }]);
    for (const data of [deepArraysJson(10_000), deepObjectsJson(200)]) {
      const response = await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: {
          authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"cms_items_create","arguments":{"websiteId":"${site.id}","collectionId":"${things.id}","values":{"data":${data}}}}}`,
      });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.kind).toBe("validation");
      expect(body.message).toMatch(
        /^params\.arguments\.values\.data(\[0\]|\.a)+: nested deeper than 64 levels/,
      );
    }
    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    await expect(
      client.callTool({
        name: "cms_items_create",
        arguments: { websiteId: site.id, collectionId: things.id, values: { data: nestedArrays(500) } },
      }),
    ).rejects.toThrow();
    const fine = await client.callTool({
      name: "cms_items_create",
      arguments: { websiteId: site.id, collectionId: things.id, values: { data: nestedArrays(20) } },
    });
    expect(resultJson(fine).values.data).toEqual(nestedArrays(20));
    await client.close();
    expect(await h.itemCount(site.id, things.id)).toBe(1);
  });

  it("refuses richText nested deeper than 32 levels at once, naming the field; renders the rest safely", async () => {
    const site = await h.site();
    const things = await h.collection(site.id, [{ key: "body", name: "Body", type: "richText" }]);
    const nestedList = (levels: number) =>
      Array.from({ length: levels }, (_, i) => `${"  ".repeat(i)}- level ${i + 1}`).join("\n");
    const baseline = await timed(() => h.createItem(site.id, things.id, { body: 5 }));
    expect(baseline.value.status).toBe(400);
    for (const body of [nestedList(500), ">".repeat(5_000), "- ".repeat(3_000), "> 1. ".repeat(1_000)]) {
      const { value: refused, ms } = await timed(() => h.createItem(site.id, things.id, { body }));
      expect(ms).toBeLessThan(atOnceBound(baseline.ms, 5_000));
      expect(refused.status).toBe(400);
      expect(refused.body.kind).toBe("validation");
      expect(refused.body.message).toMatch(/^values\.body: Markdown nested deeper than 32 levels/);
      expect(refused.body.suggestion).toMatch(/at most 32 levels/);
    }
    expect(await h.itemCount(site.id, things.id)).toBe(0);
    const fine = await h.createItem(site.id, things.id, {
      body: `${nestedList(30)}\n\n[x](&#106;avascript:alert(1))`,
    });
    expect(fine.status).toBe(200);
    expect(fine.body.html.body).toContain("level 30");
    expect(fine.body.html.body).not.toMatch(/javascript|href/);
  });

  it("renders long richText off the main thread and refuses what takes longer than 2 seconds", async () => {
    const site = await h.site();
    const things = await h.collection(site.id, [
      { key: "body", name: "Body", type: "richText" },
      { key: "note", name: "Note", type: "longText" },
    ]);
    const article = Array.from(
      { length: 200 },
      (_, i) => `## Part ${i}\n\nSome *text* with a [link](/p/${i}/).`,
    ).join("\n\n");
    const { value: fine, ms: fineMs } = await timed(() =>
      h.createItem(site.id, things.id, { body: article }),
    );
    expect(fine.status).toBe(200);
    expect(fine.body.html.body).toContain("<h2>Part 199</h2>");
    expect(fine.body.html.body).toContain('<a href="/p/7/">link</a>');
    // "*a" needs twice the length: 60,000 pairs render in about 2.7 s, near the limit on an idle machine.
    for (const body of ["_a".repeat(60_000), "*a".repeat(120_000)]) {
      const { value: refused, ms } = await timed(() => h.createItem(site.id, things.id, { body }));
      // Cut at the 2 s limit, not rendered to the end; a loaded machine stretches the margin with the baseline.
      expect(ms).toBeLessThan(2_000 + atOnceBound(fineMs, 4_000));
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe("values.body: Markdown took longer than 2 seconds to render.");
      expect(refused.body.suggestion).toMatch(/emphasis markers/);
    }
    // The same text in a plain text field is not Markdown: it is stored.
    const plain = await h.createItem(site.id, things.id, { note: "_a".repeat(60_000) });
    expect(plain.status).toBe(200);
    expect(await h.itemCount(site.id, things.id)).toBe(2);
    const listed = await ctx.request("GET", `/cms/collections/${things.id}/items?websiteId=${site.id}`);
    expect(listed.body.items[0].html.body).toContain("<h2>Part 0</h2>");
  });

  it("refuses field keys every JavaScript object has, and answers filters and sorts on them with validation", async () => {
    const site = await h.site();
    for (const key of ["constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"]) {
      const refused = await ctx.request("POST", "/cms/collections", {
        body: { websiteId: site.id, name: "Proto", fields: [{ key, name: key, type: "text" }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.kind).toBe("validation");
      expect(refused.body.message).toMatch(
        new RegExp(`^fields\\[0\\]\\.key: '${key}' is a name every JavaScript object has`),
      );
      expect(refused.body.suggestion).toMatch(/more specific key/);
    }
    const things = await h.collection(site.id, [{ key: "title", name: "Title", type: "text" }]);
    const added = await ctx.request("POST", `/cms/collections/${things.id}/fields`, {
      body: { websiteId: site.id, key: "valueOf", name: "Value", type: "number" },
    });
    expect(added.status).toBe(400);
    expect(added.body.message).toMatch(/^key: 'valueOf'/);
    const proto = await ctx.request("POST", `/cms/collections/${things.id}/fields`, {
      body: { websiteId: site.id, key: "__proto__", name: "Proto", type: "text" },
    });
    expect(proto.status).toBe(400);
    expect(proto.body.message).toMatch(/^key:/);

    const item = await h.createItem(site.id, things.id, { title: "Hello" });
    expect(item.status).toBe(200);
    for (const values of [{ constructor: "x" }, { toString: "x" }, { title: "a", hasOwnProperty: "y" }]) {
      const refused = await h.createItem(site.id, things.id, values);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^values\.(constructor|toString|hasOwnProperty): is not a field/);
      expect(refused.body.validValues).toEqual(["title"]);
    }
    const protoValue = await ctx.request("POST", `/cms/collections/${things.id}/items`, {
      body: `{"websiteId":"${site.id}","values":{"title":"b","__proto__":{"title":"c"}}}`,
    });
    expect(protoValue.status).toBe(400);
    expect(protoValue.body.message).toMatch(/^values\.__proto__: '__proto__' cannot be used as a key/);
    const update = await ctx.request("PATCH", `/cms/items/${item.body.id}`, {
      body: `{"websiteId":"${site.id}","values":{"__proto__":{"title":"c"}}}`,
    });
    expect(update.status).toBe(400);

    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const filtered = await h.query(site.id, things.id, { filter: { field: name, op: "eq", value: "x" } });
      expect(filtered.status).toBe(400);
      expect(filtered.body.message).toBe(`filter.field: '${name}' is not a field of this collection.`);
      const sorted = await h.query(site.id, things.id, { sort: [{ field: name }] });
      expect(sorted.status).toBe(400);
      expect(sorted.body.message).toMatch(/^sort\[0\]\.field: /);
    }
    expect(await h.itemCount(site.id, things.id)).toBe(1);
    const got = await ctx.request("GET", `/cms/items/${item.body.id}?websiteId=${site.id}`);
    expect(got.body.values).toEqual({ title: "Hello" });
  });

  it("refuses control characters in names on both databases, storing nothing", async () => {
    const site = await h.site();
    const bad = ["a\u0000b", "bell\u0007", "esc\u001b[31m", "del\u007f", "line\nbreak", "tab\tname"];
    const before = (await ctx.request("GET", "/websites?limit=100")).body.items.length;
    for (const name of bad) {
      const website = await ctx.request("POST", "/websites", { body: { name } });
      expect(website.status).toBe(400);
      expect(website.body.message).toMatch(/^name: must not contain control characters/);
      const renamed = await ctx.request("PATCH", `/websites/${site.id}`, { body: { name } });
      expect(renamed.status).toBe(400);
      const collection = await ctx.request("POST", "/cms/collections", {
        body: { websiteId: site.id, name },
      });
      expect(collection.status).toBe(400);
      expect(collection.body.message).toMatch(/^name: must not contain control characters/);
      const field = await ctx.request("POST", "/cms/collections", {
        body: { websiteId: site.id, name: "Ok", fields: [{ key: "k", name, type: "text" }] },
      });
      expect(field.status).toBe(400);
      expect(field.body.message).toMatch(/^fields\[0\]\.name: must not contain control characters/);
      const option = await ctx.request("POST", "/cms/collections", {
        body: {
          websiteId: site.id,
          name: "Ok",
          fields: [{ key: "k", name: "K", type: "option", validValues: [name] }],
        },
      });
      expect(option.status).toBe(400);
      expect(option.body.message).toMatch(
        /^fields\[0\]\.validValues\[0\]: must not contain control characters/,
      );
      const key = await ctx.request("POST", "/apiKeys", {
        body: {
          organizationId: ctx.t.local.organization.id,
          name,
          access: { kind: "organization", role: "content_editor" },
        },
      });
      expect(key.status).toBe(400);
      expect(key.body.message).toMatch(/^name: must not contain control characters/);
    }
    for (const description of ["nul\u0000", "vt\u000b"]) {
      const refused = await ctx.request("POST", "/cms/collections", {
        body: { websiteId: site.id, name: "Described", description },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^description: must not contain control characters/);
    }
    const lines = await ctx.request("POST", "/cms/collections", {
      body: { websiteId: site.id, name: "Described", description: "Two\nlines\twith a tab" },
    });
    expect(lines.status).toBe(200);
    expect((await ctx.request("GET", "/websites?limit=100")).body.items.length).toBe(before);
    expect((await ctx.request("GET", `/websites/${site.id}`)).body.name).toBe(site.name);
    expect((await ctx.request("GET", `/cms/collections?websiteId=${site.id}`)).body.items).toHaveLength(1);
  });

  it("logs a failed statement without its parameters", async () => {
    const stores = ctx.t.platform.db;
    const record = await stores.read((s) => s.apiKeys.get(ctx.t.adminKey.id));
    const secret = `secret-hash-${newId()}`;
    let failure: unknown;
    try {
      await stores.transaction((s) => s.apiKeys.insert({ ...record!, name: "n\u0000ul" }, secret));
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    const printed: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      printed.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(" "));
    });
    try {
      ctx.t.platform.log.error("insert failed", failure);
    } finally {
      spy.mockRestore();
    }
    if (ctx.dialect === "pg") expect(printed.join("\n")).toMatch(/Failed query: insert into "api_keys"/);
    expect(printed.join("\n")).toMatch(/insert failed/);
    expect(printed.join("\n")).not.toContain(secret);
    expect(printed.join("\n")).not.toContain("params");
  });
});
