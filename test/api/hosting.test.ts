import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import type { BuildResult } from "../../src/framework/types.ts";
import { mintPreviewToken, previewSecret } from "../../src/hosting/preview-token.ts";
import { newId } from "../../src/kernel/ids.ts";
import { createApp } from "../../src/server.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { rawQuery } from "../stores/fixtures.ts";
import {
  publishBuild,
  publishFiles,
  type RawResponse,
  rawRequest,
  setPublished,
} from "../support/hosting.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

// One preview secret for the whole file, so tests can mint the tokens the server accepts.
const PREVIEW_SECRET = "hosting-tests-preview-secret-0123456789abcdef";
const secret = previewSecret(PREVIEW_SECRET);

let starter: BuildResult;
beforeAll(async () => {
  starter = await buildSite({
    files: starterFiles("Hosted site"),
    organizationId: "org_test",
    mode: "publish",
  });
}, 120_000);
afterAll(closeSandboxPool);

const page = (result: BuildResult, route: string) => result.pages.find((p) => p.route === route)!.html;
const asset = (result: BuildResult, prefix: string) => result.assets.find((a) => a.path.startsWith(prefix))!;
const shaOf = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** A tiny site whose home page says `text`; `extra` adds or replaces files. */
const tinySite = (text: string, extra: Record<string, string> = {}) => ({
  "pages/index.tsx": `export const head = { title: ${JSON.stringify(text)} };\nexport default function Home() { return <h1>${text}</h1>; }\n`,
  ...extra,
});

interface SiteResponse extends RawResponse {
  text: string;
}

function helpers(ctx: MatrixContext) {
  let count = 0;
  /** A request to `host` + `path`: `app.fetch` in-process, a raw socket (Host and path as given) in server mode. */
  const site = async (
    host: string,
    path: string,
    options: {
      method?: string;
      headers?: Record<string, string>;
      app?: { fetch: (r: Request) => Response | Promise<Response> };
    } = {},
  ): Promise<SiteResponse> => {
    let response: RawResponse;
    if (ctx.mode === "server" && !options.app) {
      response = await rawRequest(Number(new URL(ctx.origin).port), host, path, options);
    } else {
      const app = options.app ?? ctx.t.app;
      const res = await app.fetch(
        new Request(`http://${host}${path}`, {
          method: options.method ?? "GET",
          headers: { ...options.headers, host },
        }),
      );
      response = { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    }
    return { ...response, text: response.body.toString("utf8") };
  };
  const newSite = async () => ctx.t.createWebsite(`Hosted ${ctx.mode} ${++count} ${newId().slice(-6)}`);
  /** A website with the starter published. */
  const published = async () => {
    const website = await newSite();
    const deploymentId = await publishBuild(ctx.t.platform, website.id, starter);
    return { ...website, deploymentId, host: `${website.slug}.localhost` };
  };
  /** Writes draft files straight through the store (the draft tools need a lease; this is setup). */
  const writeDraft = (websiteId: string, files: Record<string, string>) =>
    ctx.t.platform.db.transaction(async (s) => {
      const now = Date.now();
      for (const [path, text] of Object.entries(files)) {
        const content = decodeContent(path, text, "utf8");
        await s.sourceFiles.putContent(content, now);
        await s.sourceFiles.put({
          websiteId,
          path,
          sha256: content.sha256,
          size: content.size,
          updatedAt: now,
          updatedByType: "api_key",
          updatedById: ctx.t.adminKey.id,
        });
      }
    });
  return { site, newSite, published, writeDraft };
}

describeMatrix(
  "hosting",
  (ctx) => {
    const h = helpers(ctx);

    it("routes by Host: slug, any case, any port; unknown and unpublished sites get the platform page; the API host is unchanged", async () => {
      const s = await h.published();
      const home = await h.site(s.host, "/");
      expect(home.status).toBe(200);
      expect(home.text).toBe(page(starter, "/"));
      expect(home.headers.get("x-request-id")).toMatch(/^req_/);
      for (const host of [
        `${s.slug.toUpperCase()}.LocalHost`,
        `${s.slug}.localhost:8787`,
        `${s.slug}.localhost.:1`,
      ]) {
        const other = await h.site(host, "/");
        expect(other.status, host).toBe(200);
        expect(other.text).toBe(home.text);
      }

      const unknown = await h.site("no-such-site.localhost", "/");
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(unknown.headers.get("cache-control")).toBe("no-store");
      expect(unknown.text).toContain("There is no published website at this address yet");
      expect(unknown.headers.get("x-request-id")).toMatch(/^req_/);
      const unpublished = await h.newSite();
      const none = await h.site(`${unpublished.slug}.localhost`, "/");
      expect(none.status).toBe(404);
      // Unknown and unpublished read the same, so a slug's existence does not leak.
      expect(none.text.replace(unpublished.slug, "X")).toBe(unknown.text.replace("no-such-site", "X"));
      for (const host of ["a.b.localhost", "x.localhost", "-bad-.localhost", "preview.localhost"]) {
        expect((await h.site(host, "/")).status, host).toBe(404);
      }

      // The API answers on the API host only; /v1 on a site host is the site's (a missing page).
      const api = await ctx.request("GET", "/websites?limit=1");
      expect(api.status).toBe(200);
      const onApiHost = await h.site("localhost", "/v1/websites?limit=1", {
        headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
      });
      expect(onApiHost.status).toBe(200);
      expect(JSON.parse(onApiHost.text).items).toHaveLength(1);
      const onSite = await h.site(s.host, "/v1/websites", {
        headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` },
      });
      expect(onSite.status).toBe(404);
      expect(onSite.text).toBe(page(starter, "/404.html"));
      expect((await h.site("localhost", "/v1/no-such-route")).headers.get("content-type")).toMatch(
        /application\/json/,
      );
    });

    it("serves pages with their types, validators and caching; nested pages with canonical trailing slashes", async () => {
      const s = await h.published();
      const home = await h.site(s.host, "/");
      expect(home.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(home.headers.get("etag")).toBe(`"${shaOf(page(starter, "/"))}"`);
      expect(home.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
      expect(home.headers.get("x-content-type-options")).toBe("nosniff");
      expect(home.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(home.headers.get("vary")).toBe("Accept-Encoding");
      expect(home.headers.get("content-length")).toBe(String(Buffer.byteLength(page(starter, "/"))));

      const about = await h.site(s.host, "/about/");
      expect(about.status).toBe(200);
      expect(about.text).toBe(page(starter, "/about/"));
      const direct = await h.site(s.host, "/about/index.html");
      expect(direct.status).toBe(200);
      expect(direct.text).toBe(about.text);
      const redirect = await h.site(s.host, "/about?ref=nav&x=1");
      expect(redirect.status).toBe(308);
      expect(redirect.headers.get("location")).toBe("/about/?ref=nav&x=1");
      expect(redirect.body.byteLength).toBe(0);
      expect((await h.site(s.host, "/blog")).headers.get("location")).toBe("/blog/");
    });

    it("serves hashed assets as immutable and public files by exact path", async () => {
      const s = await h.published();
      const css = asset(starter, "_assets/styles-");
      const got = await h.site(s.host, `/${css.path}`);
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toBe("text/css; charset=utf-8");
      expect(got.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(got.headers.get("etag")).toBe(`"${css.sha256}"`);
      expect(got.body.equals(Buffer.from(css.body))).toBe(true);
      for (const [path, type] of [
        ["/robots.txt", "text/plain; charset=utf-8"],
        ["/favicon.svg", "image/svg+xml; charset=utf-8"],
      ] as const) {
        const file = await h.site(s.host, path);
        expect(file.status, path).toBe(200);
        expect(file.headers.get("content-type")).toBe(type);
        expect(file.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
      }
      expect((await h.site(s.host, "/_assets/styles-000000000000.css")).status).toBe(404);
      expect((await h.site(s.host, "/ROBOTS.TXT")).status).toBe(404);
    });

    it("answers If-None-Match with 304 and HEAD with the headers of GET and no body", async () => {
      const s = await h.published();
      const home = await h.site(s.host, "/");
      const etag = home.headers.get("etag")!;
      for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, "*", etag.replace(/"$/, '-br"')]) {
        const again = await h.site(s.host, "/", { headers: { "if-none-match": tag } });
        expect(again.status, tag).toBe(304);
        expect(again.body.byteLength).toBe(0);
        expect(again.headers.get("etag")).toBe(etag);
        expect(again.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
        expect(again.headers.get("vary")).toBe("Accept-Encoding");
      }
      const changed = await h.site(s.host, "/", { headers: { "if-none-match": '"0000"' } });
      expect(changed.status).toBe(200);
      // A 404 is never a 304, whatever the client holds.
      expect((await h.site(s.host, "/missing/", { headers: { "if-none-match": "*" } })).status).toBe(404);

      for (const [path, status, headers] of [
        ["/", 200, {}],
        ["/", 200, { "accept-encoding": "br" }],
        ["/about", 308, {}],
        ["/missing", 404, {}],
      ] as const) {
        const get = await h.site(s.host, path, { headers });
        const head = await h.site(s.host, path, { method: "HEAD", headers });
        expect(head.status, path).toBe(status);
        expect(head.body.byteLength).toBe(0);
        const strip = (r: SiteResponse) => {
          const all = Object.fromEntries(r.headers);
          delete all["x-request-id"];
          delete all.date;
          delete all["keep-alive"];
          delete all.connection;
          return all;
        };
        expect(strip(head), path).toStrictEqual(strip(get));
      }
    });

    it("compresses text with brotli or gzip per Accept-Encoding, with Vary, and caches by content", async () => {
      const s = await h.published();
      const html = page(starter, "/");
      const br = await h.site(s.host, "/", { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
      expect(br.headers.get("content-encoding")).toBe("br");
      expect(br.headers.get("vary")).toBe("Accept-Encoding");
      expect(br.headers.get("etag")).toBe(`"${shaOf(html)}-br"`);
      expect(Number(br.headers.get("content-length"))).toBe(br.body.byteLength);
      expect(br.body.byteLength).toBeLessThan(Buffer.byteLength(html) / 2);
      expect(brotliDecompressSync(br.body).toString()).toBe(html);

      const gz = await h.site(s.host, "/", { headers: { "accept-encoding": "gzip" } });
      expect(gz.headers.get("content-encoding")).toBe("gzip");
      expect(gz.headers.get("etag")).toBe(`"${shaOf(html)}-gzip"`);
      expect(gunzipSync(gz.body).toString()).toBe(html);

      const preferGzip = await h.site(s.host, "/", { headers: { "accept-encoding": "br;q=0.5, gzip;q=1" } });
      expect(preferGzip.headers.get("content-encoding")).toBe("gzip");
      for (const none of ["identity", "br;q=0, gzip;q=0", "deflate", "*;q=0"]) {
        const plain = await h.site(s.host, "/", { headers: { "accept-encoding": none } });
        expect(plain.headers.get("content-encoding"), none).toBeNull();
        expect(plain.text).toBe(html);
        expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      }
      expect(
        (await h.site(s.host, "/", { headers: { "accept-encoding": "*" } })).headers.get("content-encoding"),
      ).toBe("br");

      const css = asset(starter, "_assets/styles-");
      const cssBr = await h.site(s.host, `/${css.path}`, { headers: { "accept-encoding": "br" } });
      expect(cssBr.headers.get("content-encoding")).toBe("br");
      expect(brotliDecompressSync(cssBr.body).equals(Buffer.from(css.body))).toBe(true);
      // robots.txt is below the compression threshold: sent as it is.
      const robots = await h.site(s.host, "/robots.txt", { headers: { "accept-encoding": "br, gzip" } });
      expect(robots.headers.get("content-encoding")).toBeNull();

      // Binary types are never compressed and do not vary.
      const other = await h.newSite();
      await publishFiles(ctx.t.platform, other.id, tinySite("Bin", { "public/blob.bin": "x".repeat(4000) }));
      const bin = await h.site(`${other.slug}.localhost`, "/blob.bin", {
        headers: { "accept-encoding": "br, gzip" },
      });
      expect(bin.status).toBe(200);
      expect(bin.headers.get("content-type")).toBe("application/octet-stream");
      expect(bin.headers.get("content-encoding")).toBeNull();
      expect(bin.headers.get("vary")).toBeNull();
      expect(bin.text).toBe("x".repeat(4000));
    });

    it("serves the site's own 404 page, or the platform's when it has none", async () => {
      const s = await h.published();
      for (const path of ["/missing", "/missing/", "/blog/nope/", "/_assets/nope.css", "/index.htm"]) {
        const missing = await h.site(s.host, path);
        expect(missing.status, path).toBe(404);
        expect(missing.text).toBe(page(starter, "/404.html"));
        expect(missing.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
        expect(missing.headers.get("etag")).toBeNull();
      }
      const bare = await h.newSite();
      await publishFiles(ctx.t.platform, bare.id, tinySite("No 404"));
      const platform404 = await h.site(`${bare.slug}.localhost`, "/nothing-here");
      expect(platform404.status).toBe(404);
      expect(platform404.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(platform404.text).toContain("This page does not exist");
      expect(platform404.text).toContain("/nothing-here");
      expect(platform404.headers.get("x-content-type-options")).toBe("nosniff");
    });

    it("answers other methods with 405 and Allow", async () => {
      const s = await h.published();
      for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
        const response = await h.site(s.host, "/", { method });
        expect(response.status, method).toBe(405);
        expect(response.headers.get("allow")).toBe("GET, HEAD");
        expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      }
      expect((await h.site(`preview--${s.slug}.localhost`, "/", { method: "POST" })).status).toBe(405);
    });

    it("never serves anything outside the deployment's outputs (traversal, encoded separators, NUL)", async () => {
      const s = await h.published();
      // A second website whose files a traversal might try to reach.
      const other = await h.newSite();
      await publishFiles(
        ctx.t.platform,
        other.id,
        tinySite("Other", { "public/secret.txt": "TOP-SECRET-CONTENT" }),
      );
      const attempts = [
        "/../secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/_assets/..%2f..%2frobots.txt",
        "/about%2findex.html",
        "/about%5cindex.html",
        "/robots.txt%00.html",
        "/robots.txt%00",
        "//robots.txt",
        "/./robots.txt/.",
        "/%252e%252e/robots.txt",
        "/%",
        "/%zz",
        `/${"a/".repeat(1500)}`,
        `/../${other.slug}/secret.txt`,
        "/etc/passwd",
      ];
      for (const path of attempts) {
        const response = await h.site(s.host, path);
        expect([400, 404], path).toContain(response.status);
        expect(response.text, path).not.toContain("TOP-SECRET");
        expect(response.text, path).not.toContain("root:");
      }
      // Dot segments the URL resolves itself stay inside the site.
      // (a backslash is a slash to the URL parser, as in browsers).
      for (const path of ["/blog/../about/", "/about\\index.html", "/blog/%2e%2e/about/"]) {
        const dotted = await h.site(s.host, path);
        expect(dotted.status, path).toBe(200);
        expect(dotted.text).toBe(page(starter, "/about/"));
      }
    });

    it("sees a publish, a rollback and an unpublish at once, on every node", async () => {
      const website = await h.newSite();
      const host = `${website.slug}.localhost`;
      const v1 = await publishFiles(ctx.t.platform, website.id, tinySite("Version one"));
      expect((await h.site(host, "/")).text).toContain("<h1>Version one</h1>");
      // A second app on the same database: another node, with caches of its own.
      const otherNode = createApp(ctx.t.platform);
      expect((await h.site(host, "/", { app: otherNode })).text).toContain("Version one");

      const v2 = await publishFiles(ctx.t.platform, website.id, tinySite("Version two"));
      expect((await h.site(host, "/")).text).toContain("<h1>Version two</h1>");
      expect((await h.site(host, "/", { app: otherNode })).text).toContain("Version two");

      await setPublished(ctx.t.platform, website.id, v1.deploymentId);
      expect((await h.site(host, "/")).text).toContain("<h1>Version one</h1>");
      expect((await h.site(host, "/", { app: otherNode })).text).toContain("Version one");
      const etag = (await h.site(host, "/")).headers.get("etag")!;
      expect(etag).toBe(`"${shaOf(v1.result.pages.find((p) => p.route === "/")!.html)}"`);

      // A rollback committed by another process (its own connection to the database) is served from the next
      // event-loop iteration on (the data_version read is shared within one iteration).
      const mark = ctx.dialect === "pg" ? ["$1", "$2"] : ["?", "?"];
      await rawQuery(
        ctx.dialect,
        ctx.t.databaseUrl,
        `UPDATE website_publish_state SET published_deployment_id = ${mark[0]} WHERE website_id = ${mark[1]}`,
        [v2.deploymentId, website.id],
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect((await h.site(host, "/")).text).toContain("<h1>Version two</h1>");

      await setPublished(ctx.t.platform, website.id, null);
      const gone = await h.site(host, "/");
      expect(gone.status).toBe(404);
      expect(gone.text).toContain("There is no published website at this address yet");
    });

    it("serves what the publishing operations publish: publish → serve → rollback → serve", async () => {
      const website = await h.newSite();
      const host = `${website.slug}.localhost`;
      const op = (path: string, body: Record<string, unknown>) =>
        ctx.request("POST", `/websiteSourceCode${path}`, { body });
      expect((await h.site(host, "/")).status).toBe(404);
      // New websites start from the starter: its first publish serves the starter's pages.
      const first = await op("/head/publish", { websiteId: website.id });
      expect(first.status).toBe(200);
      const live = await h.site(host, "/");
      expect(live.status).toBe(200);
      expect(live.text).toContain("Websites that feel calm");
      const css = live.text.match(/href="\/(_assets\/styles-[0-9a-f]+\.css)"/)![1]!;
      expect((await h.site(host, `/${css}`)).headers.get("cache-control")).toBe(
        "public, max-age=31536000, immutable",
      );

      await h.writeDraft(website.id, tinySite("Published second"));
      const second = await op("/head/publish", { websiteId: website.id });
      expect(second.status).toBe(200);
      expect((await h.site(host, "/")).text).toContain("<h1>Published second</h1>");

      const firstId = first.body.deployment.id as string;
      expect(first.body.url).toBe(`http://${host}:8787/`);
      const back = await op("/published/rollback-version", { websiteId: website.id, deploymentId: firstId });
      expect(back.status).toBe(200);
      expect((await h.site(host, "/")).text).toContain("Websites that feel calm");
    });

    it("previews the draft for a key that reaches the website, and for no one else", async () => {
      const s = await h.published();
      const host = `preview--${s.slug}.localhost`;
      await h.writeDraft(
        s.id,
        tinySite("Draft headline", { "styles/site.css": "h1 { color: rebeccapurple; }" }),
      );

      const anonymous = await h.site(host, "/");
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(anonymous.headers.get("cache-control")).toBe("no-store");
      expect(anonymous.text).toContain("Sign in to preview this draft");
      const bogus = await h.site(host, "/", { headers: { authorization: "Bearer sw_nope" } });
      expect(bogus.status).toBe(401);

      const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
      const admin = bearer(ctx.t.adminKey.plaintextKey);
      const preview = await h.site(host, "/", admin);
      expect(preview.status).toBe(200);
      expect(preview.text).toContain("<h1>Draft headline</h1>");
      expect(preview.text).toContain('<meta name="robots" content="noindex">');
      expect(preview.headers.get("cache-control")).toBe("no-store");
      expect(preview.headers.get("x-robots-tag")).toBe("noindex");
      expect(preview.headers.get("etag")).toBeNull();
      const cssPath = preview.text.match(/href="\/(_assets\/styles-[0-9a-f]+\.css)"/)![1]!;
      const css = await h.site(host, `/${cssPath}`, admin);
      expect(css.status).toBe(200);
      expect(css.text).toContain("h1{color:#639}");
      expect(css.headers.get("cache-control")).toBe("no-store");
      expect((await h.site(host, "/nope/", admin)).status).toBe(404);
      // The live site is untouched by the draft.
      expect((await h.site(s.host, "/")).text).toBe(page(starter, "/"));

      // An edit shows on the next request.
      await h.writeDraft(s.id, tinySite("Second draft"));
      expect((await h.site(host, "/", admin)).text).toContain("<h1>Second draft</h1>");

      // Keys that cannot reach the website: scoped to another website, or of another organization.
      const elsewhere = await h.newSite();
      const scopedOther = await ctx.t.createKey({
        kind: "websites",
        websiteIds: [elsewhere.id],
        role: "full_editor",
      });
      const denied = await h.site(host, "/", bearer(scopedOther.plaintextKey));
      expect(denied.status).toBe(404);
      expect(denied.text).not.toContain("Second draft");
      const org = await ctx.t.createOrganization(`Other org ${newId().slice(-5)}`);
      const foreign = await ctx.t.call(
        "apiKeys.create",
        {
          organizationId: org.organization.id,
          name: "foreign",
          access: { kind: "organization", role: "admin" },
        },
        org.principal,
      );
      expect((await h.site(host, "/", bearer(foreign.plaintextKey))).status).toBe(404);
      // A content editor scoped to this website may preview it.
      const editor = await ctx.t.createKey({ kind: "websites", websiteIds: [s.id], role: "content_editor" });
      expect((await h.site(host, "/", bearer(editor.plaintextKey))).text).toContain("Second draft");
      expect((await h.site("preview--no-such-site.localhost", "/", admin)).status).toBe(404);
    });

    it("shows a draft's build errors in the preview", async () => {
      const website = await h.newSite();
      const host = `preview--${website.slug}.localhost`;
      const admin = { headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` } };
      // New websites start from the starter: empty the draft first.
      await ctx.t.platform.db.transaction(async (st) => {
        for (const file of await st.sourceFiles.list(website.id, {}))
          await st.sourceFiles.delete(website.id, file.path);
      });
      const empty = await h.site(host, "/", admin);
      expect(empty.status).toBe(500);
      expect(empty.text).toContain("The draft does not build");
      expect(empty.text).toContain("pages/index.tsx");
      await h.writeDraft(website.id, {
        "pages/index.tsx": "export default function Home() {\n  return <h1>Broken</h2>;\n}\n",
      });
      const broken = await h.site(host, "/", admin);
      expect(broken.status).toBe(500);
      expect(broken.text).toMatch(/pages\/index\.tsx:2:\d+: /);
      expect(broken.headers.get("x-robots-tag")).toBe("noindex");
    });

    it("opens a preview link: a signed token becomes a cookie of the preview host", async () => {
      const s = await h.published();
      const host = `preview--${s.slug}.localhost`;
      await h.writeDraft(s.id, tinySite("Token draft"));
      const editor = await ctx.t.createKey({ kind: "websites", websiteIds: [s.id], role: "content_editor" });
      const token = mintPreviewToken(secret, {
        websiteId: s.id,
        principal: { type: "api_key", id: editor.id },
      });
      expect(token.length).toBeLessThan(100);

      const opened = await h.site(host, `/about/?sitewright_preview=${encodeURIComponent(token)}&x=1`);
      expect(opened.status).toBe(303);
      expect(opened.headers.get("location")).toBe("/about/?x=1");
      const cookie = opened.headers.get("set-cookie")!;
      expect(cookie).toMatch(
        /^sitewright_preview=[^;]+; Path=\/; Max-Age=(59\d|600); HttpOnly; SameSite=Lax$/,
      );
      const jar = { headers: { cookie: cookie.split(";")[0]! } };
      const home = await h.site(host, "/", jar);
      expect(home.status).toBe(200);
      expect(home.text).toContain("Token draft");

      const refuse = async (bad: string, why: string) => {
        const link = await h.site(host, `/?sitewright_preview=${encodeURIComponent(bad)}`);
        expect(link.status, why).toBe(401);
        expect(link.headers.get("set-cookie"), why).toBeNull();
        expect(
          (await h.site(host, "/", { headers: { cookie: `sitewright_preview=${bad}` } })).status,
          why,
        ).toBe(401);
      };
      // Flip a character well inside the signature: the last characters of base64url carry padding bits that a
      // decoder may ignore, so changing them does not always change the signature.
      const at = token.length - 10;
      const flipped = token[at] === "A" ? "B" : "A";
      await refuse(`${token.slice(0, at)}${flipped}${token.slice(at + 1)}`, "tampered signature");
      await refuse(token.replace(s.id, newId()), "other website id");
      await refuse(
        mintPreviewToken(
          secret,
          { websiteId: s.id, principal: { type: "api_key", id: editor.id } },
          { now: Date.now() - 3_600_000 },
        ),
        "expired",
      );
      await refuse(
        mintPreviewToken(Buffer.from("another-secret-another-secret-another"), {
          websiteId: s.id,
          principal: { type: "api_key", id: editor.id },
        }),
        "another secret",
      );
      // A token of another website does not open this one (its key reaches only that one).
      const other = await h.newSite();
      const otherToken = mintPreviewToken(secret, {
        websiteId: other.id,
        principal: { type: "api_key", id: ctx.t.adminKey.id },
      });
      await refuse(otherToken, "token of another website");

      await ctx.t.call("apiKeys.revoke", { apiKeyId: editor.id });
      expect((await h.site(host, "/", jar)).status).toBe(401);
      await refuse(token, "revoked key");
    });

    it("mints preview links through the operation, for a key and for a signed-in user", async () => {
      const s = await h.published();
      const host = `preview--${s.slug}.localhost`;
      await h.writeDraft(s.id, tinySite("Linked draft"));
      const open = async (url: string) => {
        const link = new URL(url);
        expect(link.hostname).toBe(host);
        const opened = await h.site(host, `${link.pathname}${link.search}`);
        expect(opened.status).toBe(303);
        const jar = { headers: { cookie: opened.headers.get("set-cookie")!.split(";")[0]! } };
        return { jar, page: await h.site(host, "/", jar) };
      };

      const editor = await ctx.t.createKey({ kind: "websites", websiteIds: [s.id], role: "content_editor" });
      const made = await ctx.request("POST", "/websiteSourceCode/preview-link", {
        key: editor.plaintextKey,
        body: { websiteId: s.id, ttlSeconds: 120 },
      });
      expect(made.status).toBe(200);
      const expires = Date.parse(made.body.expiresAt) - Date.now();
      expect(expires).toBeGreaterThan(100_000);
      expect(expires).toBeLessThanOrEqual(120_000);
      const byKey = await open(made.body.url);
      expect(byKey.page.status).toBe(200);
      expect(byKey.page.text).toContain("Linked draft");
      const tooLong = await ctx.request("POST", "/websiteSourceCode/preview-link", {
        key: editor.plaintextKey,
        body: { websiteId: s.id, ttlSeconds: 7200 },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.message).toMatch(/^ttlSeconds/);
      const other = await h.newSite();
      const outside = await ctx.request("POST", "/websiteSourceCode/preview-link", {
        key: editor.plaintextKey,
        body: { websiteId: other.id },
      });
      expect(outside.status).toBe(404);

      // A signed-in website editor's link works while they hold access, and stops when it is revoked.
      const user = await ctx.t.createUser(`previewer-${ctx.mode}-${newId().slice(-6)}@example.test`);
      await ctx.t.call("websiteEditors.grant", { websiteId: s.id, userId: user.id, role: "content_editor" });
      const mine = await ctx.t.callAsUser(user.id, "websiteSourceCode.preview.createLink", {
        websiteId: s.id,
      });
      const byUser = await open(mine.url);
      expect(byUser.page.status).toBe(200);
      await ctx.t.call("websiteEditors.revoke", { websiteId: s.id, userId: user.id });
      expect((await h.site(host, "/", byUser.jar)).status).toBe(404); // outside their scope now: not found
    });
  },
  { config: { previewSecret: PREVIEW_SECRET } },
);
