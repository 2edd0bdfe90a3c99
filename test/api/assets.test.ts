import { readdirSync } from "node:fs";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { expect, it } from "vitest";
import { readCmsSnapshot } from "../../src/services/cms/provider.ts";
import { publishFiles, rawRequest } from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#cc6633" } })
    .jpeg()
    .toBuffer();

/** A PNG whose header claims `width`×`height` pixels around one tiny row of data: a decompression bomb's shape. */
function bombPng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc(width + 1))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const SVG = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><script>alert(document.cookie)</script><rect width="120" height="60" fill="teal"/>${"<!-- padding -->".repeat(40)}</svg>`;

/** A request to a website's host (in-process with its URL, or over the socket with its Host header). */
async function site(ctx: MatrixContext, slug: string, path: string, headers: Record<string, string> = {}) {
  if (ctx.mode === "server") {
    const raw = await rawRequest(Number(new URL(ctx.origin).port), `${slug}.localhost`, path, { headers });
    return { status: raw.status, headers: raw.headers, body: raw.body };
  }
  const response = await ctx.t.app.fetch(new Request(`http://${slug}.localhost${path}`, { headers }));
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

const blobCount = (root: string) =>
  readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

describeMatrix("assets", (ctx) => {
  let n = 0;
  const newSite = () => ctx.t.createWebsite(`assets-${ctx.mode}-${++n}`);
  const upload = (websiteId: string, bytes: Buffer, query = "", type = "application/octet-stream") =>
    ctx.fetch(`/v1/websites/${websiteId}/assets${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`, "content-type": type },
      body: new Uint8Array(bytes),
    });

  it("uploads as a binary body, a multipart form and base64 JSON; lists, gets and updates", async () => {
    const website = await newSite();
    const raw = await upload(
      website.id,
      await png(640, 480),
      "?name=hero.png&folder=home&alt=A%20blue%20field",
      "image/jpeg",
    );
    expect(raw.status).toBe(200);
    const hero = await raw.json();
    expect(hero).toMatchObject({
      name: "hero.png",
      folder: "home",
      alt: "A blue field",
      contentType: "image/png",
      width: 640,
      height: 480,
      path: `/_assets/${hero.sha256}/hero.png`,
    });
    expect(hero.url).toMatch(
      new RegExp(`^http://${website.slug}\\.localhost(:\\d+)?/_assets/${hero.sha256}/hero\\.png$`),
    );

    const form = new FormData();
    form.append("file", new Blob([await jpeg(300, 200)]), "team photo.jpg");
    form.append("alt", "The team");
    const multipart = await ctx.fetch(`/v1/websites/${website.id}/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
      body: form,
    });
    expect(multipart.status).toBe(200);
    expect(await multipart.json()).toMatchObject({
      name: "team photo.jpg",
      alt: "The team",
      contentType: "image/jpeg",
      width: 300,
      height: 200,
    });

    const json = await ctx.request("POST", `/websites/${website.id}/assets`, {
      body: { contentBase64: Buffer.from(SVG).toString("base64"), name: "logo.svg", folder: "brand" },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ contentType: "image/svg+xml", width: 120, height: 60 });

    const all = await ctx.request("GET", `/websites/${website.id}/assets?limit=2`);
    expect(all.body.items.map((a: { name: string }) => a.name)).toEqual(["logo.svg", "team photo.jpg"]);
    const next = await ctx.request(
      "GET",
      `/websites/${website.id}/assets?limit=2&cursor=${all.body.nextCursor}`,
    );
    expect(next.body).toMatchObject({ items: [{ name: "hero.png" }], nextCursor: null });
    const images = await ctx.request("GET", `/websites/${website.id}/assets?contentType=image/svg%2Bxml`);
    expect(images.body.items.map((a: { name: string }) => a.name)).toEqual(["logo.svg"]);
    const byName = await ctx.request("GET", `/websites/${website.id}/assets?nameContains=TEAM`);
    expect(byName.body.items.map((a: { name: string }) => a.name)).toEqual(["team photo.jpg"]);
    const inFolder = await ctx.request(
      "GET",
      `/websites/${website.id}/assets?folder=home&contentType=image/*`,
    );
    expect(inFolder.body.items.map((a: { name: string }) => a.name)).toEqual(["hero.png"]);

    const got = await ctx.request("GET", `/websites/${website.id}/assets/${hero.id}`);
    expect(got.body).toMatchObject({ id: hero.id, size: hero.size, usage: { pages: [], cmsItems: [] } });
    const updated = await ctx.request("PATCH", `/websites/${website.id}/assets/${hero.id}`, {
      body: { alt: "Sky", folder: "" },
    });
    expect(updated.body).toMatchObject({ alt: "Sky", folder: "", name: "hero.png" });
  });

  it("serves assets immutable with ETag, 304, ranges and compression; SVG inert", async () => {
    const website = await newSite();
    const bytes = await png(64, 64);
    const asset = await (await upload(website.id, bytes, "?name=a.png")).json();
    const full = await site(ctx, website.slug, asset.path);
    expect(full.status).toBe(200);
    expect(full.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(full.headers.get("content-type")).toBe("image/png");
    expect(full.headers.get("etag")).toBe(`"${asset.sha256}"`);
    expect(full.headers.get("x-content-type-options")).toBe("nosniff");
    expect(full.body.equals(bytes)).toBe(true);
    const again = await site(ctx, website.slug, asset.path, { "if-none-match": `"${asset.sha256}"` });
    expect(again.status).toBe(304);
    const part = await site(ctx, website.slug, asset.path, { range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(10, 20))).toBe(true);
    const tail = await site(ctx, website.slug, asset.path, { range: "bytes=-5" });
    expect(tail.body.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    const beyond = await site(ctx, website.slug, asset.path, { range: `bytes=${bytes.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    expect(
      (await site(ctx, website.slug, asset.path, { "accept-encoding": "br" })).headers.get(
        "content-encoding",
      ),
    ).toBeNull();

    const svg = await ctx.request("POST", `/websites/${website.id}/assets`, {
      body: { contentBase64: Buffer.from(SVG).toString("base64"), name: "logo.svg" },
    });
    const served = await site(ctx, website.slug, svg.body.path, { "accept-encoding": "gzip" });
    expect(served.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(served.headers.get("content-encoding")).toBe("gzip");

    // Another website's host does not serve it; an unknown hash is 404.
    const other = await newSite();
    expect((await site(ctx, other.slug, asset.path)).status).toBe(404);
    expect((await site(ctx, website.slug, `/_assets/${"0".repeat(64)}/a.png`)).status).toBe(404);
  });

  it("makes image variants on request, snapped and bounded, cached by hash and parameters", async () => {
    const website = await newSite();
    const asset = await (await upload(website.id, await jpeg(1000, 500), "?name=wide.jpg")).json();
    const webp = await site(ctx, website.slug, `${asset.path}?w=300&format=webp&q=83`);
    expect(webp.status).toBe(200);
    expect(webp.headers.get("content-type")).toBe("image/webp");
    expect(webp.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = webp.headers.get("etag")!;
    expect(etag).toBe(`"${asset.sha256}-w320-q80.webp"`);
    expect(await sharp(webp.body).metadata()).toMatchObject({ format: "webp", width: 320, height: 160 });
    const again = await site(ctx, website.slug, `${asset.path}?format=webp&q=80&w=320`);
    expect(again.body.equals(webp.body)).toBe(true);
    expect(
      (await site(ctx, website.slug, `${asset.path}?w=320&format=webp&q=80`, { "if-none-match": etag }))
        .status,
    ).toBe(304);
    const huge = await site(ctx, website.slug, `${asset.path}?w=99999&format=avif`);
    expect(await sharp(huge.body).metadata()).toMatchObject({ format: "heif", width: 1000 });
    const png = await site(ctx, website.slug, `${asset.path}?w=64&format=png`);
    expect(await sharp(png.body).metadata()).toMatchObject({ format: "png", width: 64 });
    for (const bad of ["?format=gif", "?w=wide", "?q=x"]) {
      const res = await site(ctx, website.slug, `${asset.path}${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.toString(), bad).toMatch(/This image URL is invalid/);
    }
  });

  it("builds pages whose Image writes srcset, sizes, width and height of variants", async () => {
    const website = await newSite();
    const asset = await (
      await upload(website.id, await jpeg(1500, 1000), "?name=team.jpg&alt=Our%20team")
    ).json();
    const { result } = await publishFiles(ctx.t.platform, website.id, {
      "pages/index.tsx": `import { Image, asset } from "sitewright:assets";
const team = ${JSON.stringify({ path: asset.path, width: asset.width, height: asset.height, alt: asset.alt })};
export default function Home() {
  return <main><Image src={team} sizes="(max-width: 600px) 100vw, 600px" width={600} /><a href={asset(team, { format: "png" })}>png</a></main>;
}`,
    });
    const html = result.pages.find((p) => p.route === "/")!.html;
    expect(html).toContain(`src="${asset.path}?w=1280&amp;format=webp"`);
    expect(html).toContain(`${asset.path}?w=320&amp;format=webp 320w`);
    expect(html).toContain(`${asset.path}?w=1500&amp;format=webp 1500w`);
    expect(html).toMatch(/sizes="\(max-width: 600px\) 100vw, 600px"/);
    expect(html).toMatch(/width="600"/);
    expect(html).toMatch(/height="400"/);
    expect(html).toMatch(/alt="Our team"/);
    expect(html).toContain(`href="${asset.path}?format=png"`);
  });

  it("refuses bad uploads with clear errors and stores nothing", async () => {
    const website = await newSite();
    const before = blobCount(ctx.t.blobRoot);
    const good = await png(400, 300);
    const cases: [string, Buffer, RegExp, number?][] = [
      ["wrong type", Buffer.from("just some text, not a file we host"), /not accepted as an asset/],
      ["zip", Buffer.from("504b0304140000000800", "hex"), /not accepted|application\/zip/],
      ["truncated", good.subarray(0, Math.floor(good.length / 2)), /truncated or damaged/],
      ["bomb", bombPng(20_000, 20_000), /pixel/],
      ["empty", Buffer.alloc(0), /empty/],
    ];
    for (const [what, bytes, message] of cases) {
      const res = await upload(website.id, bytes, `?name=${what}.png`);
      const body = await res.json();
      expect(res.status, what).toBe(400);
      expect(body.kind, what).toBe("validation");
      expect(body.message, what).toMatch(message);
    }
    const wrong = await upload(website.id, Buffer.from("plain text"));
    expect((await wrong.json()).validValues).toContain("image/png");
    const tooBig = await upload(website.id, Buffer.alloc(25 * 1024 * 1024 + 1, 1));
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).kind).toBe("validation");
    expect((await ctx.request("GET", `/websites/${website.id}/assets`)).body.items).toEqual([]);
    expect(blobCount(ctx.t.blobRoot)).toBe(before);
  });

  it("refuses deleting an asset used by the live site or a CMS item unless forced; reports the usage", async () => {
    const website = await newSite();
    const asset = await (await upload(website.id, await png(32, 32), "?name=used.png")).json();
    await publishFiles(ctx.t.platform, website.id, {
      "pages/index.tsx": `export default function Home() { return <img src="${asset.path}" alt="" />; }`,
    });
    const usage = await ctx.request("GET", `/websites/${website.id}/assets/${asset.id}/usage`);
    expect(usage.body).toEqual({ pages: [{ path: "/index.html" }], cmsItems: [] });
    const refused = await ctx.request("DELETE", `/websites/${website.id}/assets/${asset.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ kind: "conflict", message: expect.stringContaining("/index.html") });

    const other = await (await upload(website.id, await png(16, 16), "?name=cms.png")).json();
    const collection = await ctx.request("POST", "/cms/collections", {
      body: {
        websiteId: website.id,
        name: "Posts",
        fields: [{ key: "cover", name: "Cover", type: "image" }],
      },
    });
    expect(collection.status).toBe(200);
    const item = await ctx.request("POST", `/cms/collections/${collection.body.id}/items`, {
      body: { websiteId: website.id, values: { cover: other.id } },
    });
    expect(item.status, JSON.stringify(item.body)).toBe(200);
    // The build sees the image field as the asset's path, and the asset itself under $assets.
    const snapshot = await ctx.t.platform.db.read((stores) => readCmsSnapshot(stores, website.id, "preview"));
    expect(snapshot.posts?.[0]?.values).toEqual({
      cover: other.path,
      $assets: { cover: { path: other.path, contentType: "image/png", width: 16, height: 16, alt: "" } },
    });
    // Served (and so cached by hosting) before the deletion: the deletion still ends it on the next request.
    expect((await site(ctx, website.slug, other.path)).status).toBe(200);
    const inCms = await ctx.request("DELETE", `/websites/${website.id}/assets/${other.id}`);
    expect(inCms.status).toBe(409);
    expect(inCms.body.suggestion).toContain("assets.usage.list");
    const forced = await ctx.request("DELETE", `/websites/${website.id}/assets/${other.id}`, {
      body: { force: true },
    });
    expect(forced.status).toBe(200);
    expect((await ctx.request("GET", `/websites/${website.id}/assets/${other.id}`)).status).toBe(404);
    expect((await site(ctx, website.slug, other.path)).status).toBe(404);
  });

  it("is scoped: another organization's website is not_found; over MCP base64 is capped", async () => {
    const website = await newSite();
    const stranger = await ctx.t.createOrganization(`strangers-${ctx.mode}-${++n}`);
    const theirs = await ctx.t.call("websites.create", { name: `theirs-${ctx.mode}` }, stranger.principal);
    const theirAsset = await ctx.t.call(
      "assets.upload",
      { websiteId: theirs.id, contentBase64: (await png(8, 8)).toString("base64") },
      stranger.principal,
    );
    for (const path of [`/websites/${theirs.id}/assets`, `/websites/${theirs.id}/assets/${theirAsset.id}`]) {
      expect((await ctx.request("GET", path)).status).toBe(404);
    }
    expect((await upload(theirs.id, await png(8, 8))).status).toBe(404);

    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey);
    try {
      const ok = await client.callTool({
        name: "assets_upload",
        arguments: {
          websiteId: website.id,
          contentBase64: (await png(10, 10)).toString("base64"),
          name: "m.png",
        },
      });
      expect(ok.isError).toBeFalsy();
      expect(resultJson(ok)).toMatchObject({ contentType: "image/png", width: 10 });
      const big = await client.callTool({
        name: "assets_upload",
        arguments: {
          websiteId: website.id,
          contentBase64: Buffer.alloc(5 * 1024 * 1024 + 10).toString("base64"),
        },
      });
      expect(big.isError).toBe(true);
      expect(resultJson(big)).toMatchObject({
        kind: "validation",
        suggestion: expect.stringContaining("assets_import_from_url"),
      });
    } finally {
      await client.close();
    }
  });
});
