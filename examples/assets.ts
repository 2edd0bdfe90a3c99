// Images on a live page: uploads an image over REST (multipart), uses it in a page through `sitewright:assets`'
// Image component (a responsive srcset of resized variants), publishes, then fetches the page and one variant and
// checks what came back.
//
//   SITEWRIGHT_API_KEY=<key> node --import tsx examples/assets.ts
//
// SITEWRIGHT_URL defaults to http://localhost:8787/v1 (what `sitewright dev` prints); the live site is reached on
// the same port as <slug>.localhost. Prints one `ok`/`FAIL` line per check and exits 1 on any failure.
import { request } from "node:http";
import sharp from "sharp";

const base = (process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1").replace(/\/$/, "");
const apiKey = process.env.SITEWRIGHT_API_KEY;
if (!apiKey) {
  console.error("Set SITEWRIGHT_API_KEY to an API key (`sitewright dev` prints one on first start).");
  process.exit(2);
}
const auth = { authorization: `Bearer ${apiKey}` };

/** A REST call; any error body is printed and ends the script. */
async function api<T>(method: string, path: string, body?: unknown | FormData): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers:
      body instanceof FormData || body === undefined ? auth : { ...auth, "content-type": "application/json" },
    body: body instanceof FormData || body === undefined ? body : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    console.error(`${method} ${path} failed with ${response.status}: ${text}`);
    process.exit(1);
  }
  return JSON.parse(text) as T;
}

/** A GET of the live site straight to the server, the Host header naming the site. */
function live(host: string, path: string): Promise<{ status: number; type: string; body: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: url.hostname, port: url.port || 80, path, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers["content-type"] ?? "",
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on("error", reject)
      .end();
  });
}

let failed = false;
function check(what: string, ok: boolean, detail: string) {
  console.log(`${ok ? "ok" : "FAIL"} ${what}: ${detail}`);
  if (!ok) failed = true;
}

// 1. A website, and an image: 1600×900 pixels, uploaded as a multipart file with its alt text.
const website = await api<{ id: string; slug: string; url: string }>("POST", "/websites", {
  name: `Assets example ${Date.now()}`,
});
console.log(`Created website ${website.id} at ${website.url}`);
const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#2a7f62" } })
  .png()
  .toBuffer();
const form = new FormData();
form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "meadow.png");
form.append("alt", "A green meadow");
type Asset = {
  id: string;
  path: string;
  url: string;
  width: number;
  height: number;
  alt: string;
  contentType: string;
};
const asset = await api<Asset>("POST", `/websites/${website.id}/assets`, form);
console.log(`Uploaded ${asset.path} (${asset.contentType}, ${asset.width}×${asset.height})`);

// 2. A home page that shows it with Image, written under the edit lease, then published.
const { leaseId } = await api<{ leaseId: string }>("POST", "/websiteSourceCode/lease/acquire", {
  websiteId: website.id,
  ttlSeconds: 120,
});
const meadow = JSON.stringify({ path: asset.path, width: asset.width, height: asset.height, alt: asset.alt });
await api("POST", "/websiteSourceCode/files/write", {
  websiteId: website.id,
  leaseId,
  path: "pages/index.tsx",
  content: `import { Image } from "sitewright:assets";
const meadow = ${meadow};
export default function Home() {
  return <main><h1>Meadow</h1><Image src={meadow} sizes="(max-width: 800px) 100vw, 800px" /></main>;
}
`,
});
await api("POST", "/websiteSourceCode/lease/release", { websiteId: website.id, leaseId });
await api("POST", "/websiteSourceCode/head/publish", { websiteId: website.id });
console.log("Published");

// 3. The live page's <img> offers resized WebP variants; one of them is fetched and decoded.
const host = new URL(website.url).host;
const page = await live(host, "/");
const html = page.body.toString("utf8");
const srcset = /srcset="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
const widths = [...srcset.matchAll(/ (\d+)w/g)].map((m) => Number(m[1]));
check("page", page.status === 200 && html.includes('alt="A green meadow"'), `GET / answered ${page.status}`);
check("srcset", widths.length > 3 && widths.at(-1) === 1600, `widths ${widths.join(", ")}`);
const candidate =
  srcset
    .split(", ")
    .find((entry) => entry.endsWith(" 480w"))
    ?.split(" ")[0] ?? "";
const variant = await live(host, candidate);
const meta = variant.status === 200 ? await sharp(variant.body).metadata() : undefined;
check(
  "variant",
  meta?.format === "webp" && meta.width === 480 && meta.height === 270,
  `GET ${candidate} answered ${variant.status} ${variant.type}, ${meta?.format} ${meta?.width}×${meta?.height}`,
);
process.exit(failed ? 1 : 0);
