import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "../../src/hosting/encoding.ts";
import { siteHostMatcher } from "../../src/hosting/host.ts";
import { WeightedLru } from "../../src/hosting/lru.ts";
import { targetOf } from "../../src/hosting/paths.ts";
import {
  MAX_PREVIEW_TOKEN_TTL_MS,
  mintPreviewToken,
  previewSecret,
  verifyPreviewToken,
} from "../../src/hosting/preview-token.ts";
import {
  ByteCaches,
  cachedReply,
  etagMatches,
  type RequestLike,
  type ResponsePolicy,
  respond,
  type ServedFile,
} from "../../src/hosting/respond.ts";
import { newId } from "../../src/kernel/ids.ts";
import { publishFiles, rawRequest } from "../support/hosting.ts";
import { describeMatrix } from "../support/matrix.ts";

describe("site hosts", () => {
  const match = siteHostMatcher("localhost");
  it("reads <slug>.<sitesDomain>[:port], any case, and preview--<slug>", () => {
    expect(match("acme.localhost")).toStrictEqual({ kind: "live", slug: "acme" });
    expect(match("ACME.LocalHost:8787")).toStrictEqual({ kind: "live", slug: "acme" });
    expect(match("acme.localhost.")).toStrictEqual({ kind: "live", slug: "acme" });
    expect(match("preview--acme.localhost:1")).toStrictEqual({ kind: "preview", slug: "acme" });
    expect(match("a.b.localhost")).toStrictEqual({ kind: "live", slug: "a.b" });
  });
  it("leaves the API host and other hosts alone", () => {
    for (const host of [
      "localhost",
      "localhost:8787",
      "127.0.0.1:8787",
      "[::1]:8787",
      "example.com",
      "notlocalhost",
      ".localhost",
      "",
      null,
      undefined,
    ]) {
      expect(match(host), String(host)).toBeUndefined();
    }
  });
  it("follows a configured sites domain", () => {
    const sites = siteHostMatcher("Sites.Example.test");
    expect(sites("blog.sites.example.test:443")).toStrictEqual({ kind: "live", slug: "blog" });
    expect(sites("blog.localhost")).toBeUndefined();
    expect(sites("sites.example.test")).toBeUndefined();
  });
});

describe("request paths", () => {
  it("maps pages, directories and files to output paths", () => {
    expect(targetOf("/")).toStrictEqual({ kind: "file", file: "index.html" });
    expect(targetOf("/about/")).toStrictEqual({ kind: "file", file: "about/index.html" });
    expect(targetOf("/about")).toStrictEqual({
      kind: "file",
      file: "about",
      directoryIndex: "about/index.html",
    });
    expect(targetOf("/blog/hello/")).toStrictEqual({ kind: "file", file: "blog/hello/index.html" });
    expect(targetOf("/_assets/styles-0a1b.css")).toMatchObject({ file: "_assets/styles-0a1b.css" });
    expect(targetOf("/my%20file.txt")).toMatchObject({ file: "my file.txt" });
    expect(targetOf("/caf%C3%A9/")).toMatchObject({ file: "café/index.html" });
  });
  it("refuses whatever could mean something else", () => {
    for (const path of [
      "",
      "about",
      "//x",
      "/a//b",
      "/..",
      "/../x",
      "/a/./b",
      "/%2e%2e/x",
      "/%2E/x",
      "/a%2fb",
      "/a%2Fb",
      "/a%5cb",
      "/a\\b",
      "/a%00b",
      "/a%0ab",
      "/a%7f",
      "/%",
      "/%zz",
      "/%c3",
      `/${"x".repeat(3000)}`,
    ]) {
      expect(targetOf(path), path).toStrictEqual({ kind: "invalid" });
    }
  });
});

describe("content negotiation", () => {
  it("picks the acceptable encoding with the highest q, brotli on ties", () => {
    expect(negotiateEncoding(null)).toBeNull();
    expect(negotiateEncoding("")).toBeNull();
    expect(negotiateEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateEncoding("gzip")).toBe("gzip");
    expect(negotiateEncoding("x-gzip")).toBe("gzip");
    expect(negotiateEncoding("BR")).toBe("br");
    expect(negotiateEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*;q=0.1, br;q=0")).toBe("gzip");
    expect(negotiateEncoding("identity")).toBeNull();
    expect(negotiateEncoding("deflate, compress")).toBeNull();
    expect(negotiateEncoding("gzip;q=abc, br;q=0.1")).toBe("br");
  });
  it("compares entity tags weakly, across encodings", () => {
    const sha = "a".repeat(64);
    expect(etagMatches(`"${sha}"`, sha)).toBe(true);
    expect(etagMatches(`W/"${sha}"`, sha)).toBe(true);
    expect(etagMatches(`"${sha}-gzip"`, sha)).toBe(true);
    expect(etagMatches(`"x", "${sha}-br"`, sha)).toBe(true);
    expect(etagMatches("*", sha)).toBe(true);
    expect(etagMatches(`"${"b".repeat(64)}"`, sha)).toBe(false);
    expect(etagMatches(sha, sha)).toBe(false);
    expect(etagMatches(`"${sha}-zstd"`, sha)).toBe(false);
  });
});

describe("caches", () => {
  it("answers from memory as respond does, reusing a file's headers per method and encoding", async () => {
    const html = Buffer.from(`<!doctype html><p>${"cached page ".repeat(200)}</p>`);
    const file: ServedFile = {
      path: "index.html",
      sha256: "c".repeat(64),
      contentType: "text/html; charset=utf-8",
      size: html.byteLength,
    };
    const source = {
      find: async (path: string) => (path === file.path ? file : undefined),
      bytes: async () => html,
    };
    const policy: ResponsePolicy = {
      cacheControl: () => "public, max-age=0, must-revalidate",
      errorCacheControl: "no-cache",
      headers: { "x-test": "1" },
      conditional: true,
      compress: true,
    };
    const caches = new ByteCaches();
    const request = (method: string, headers: Record<string, string> = {}): RequestLike => ({
      method,
      pathname: "/",
      search: "",
      headers: { get: (name) => headers[name] ?? null },
    });
    const variants = [
      request("GET"),
      request("GET", { "accept-encoding": "br" }),
      request("HEAD", { "accept-encoding": "gzip" }),
      request("GET", { "if-none-match": `"${file.sha256}-br"`, "accept-encoding": "br" }),
      request("GET", { "if-none-match": `"${"d".repeat(64)}"` }),
    ];
    for (const r of variants) {
      const expected = await respond(r, source, policy, caches);
      const first = cachedReply(r, () => file, policy, caches);
      const again = cachedReply(r, () => file, policy, caches);
      for (const reply of [first, again]) {
        expect({ ...reply, flat: undefined }).toStrictEqual({ ...expected, flat: undefined });
        if (reply?.flat) expect(reply.flat.slice(2)).toStrictEqual(Object.entries(reply.headers).flat());
      }
      // Without validators the headers (and their flat list for node:http) are built once and reused.
      const reused = !r.headers.get("if-none-match");
      expect(again!.headers === first!.headers).toBe(reused);
      expect(Boolean(again!.flat)).toBe(reused);
    }
    expect(cachedReply(request("GET"), () => undefined, policy, caches)).toBeUndefined();
    expect(cachedReply(request("GET"), () => file, policy, new ByteCaches())).toBeUndefined();
  });

  it("evicts the least recently used entries past the weight budget and skips oversized ones", () => {
    const lru = new WeightedLru<string, string>(10, 6);
    lru.set("a", "A", 4);
    lru.set("b", "B", 4);
    expect(lru.get("a")).toBe("A"); // a is now the newest
    lru.set("c", "C", 4);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("A");
    expect(lru.get("c")).toBe("C");
    expect(lru.weight).toBe(8);
    lru.set("big", "X", 7);
    expect(lru.get("big")).toBeUndefined();
    lru.set("a", "A2", 2);
    expect(lru.weight).toBe(6);
    lru.delete("c");
    expect(lru.size).toBe(1);
  });
  it("shares one read and one compression between concurrent misses, and caches both by content", async () => {
    const caches = new ByteCaches({ rawBytes: 1 << 20, compressedBytes: 1 << 20 });
    let loads = 0;
    const text = Buffer.from("<p>hello</p>".repeat(100));
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return text;
    };
    const [a, b] = await Promise.all([caches.rawBytes("s1", load), caches.rawBytes("s1", load)]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    await caches.rawBytes("s1", load);
    expect(loads).toBe(1);
    const [x, y] = await Promise.all([caches.encoded("s1", "br", text), caches.encoded("s1", "br", text)]);
    expect(x).toBe(y);
    expect(x!.byteLength).toBeLessThan(100);
    expect(await caches.encoded("s1", "br", text)).toBe(x);
    // Content that does not shrink is remembered as such.
    const random = randomBytes(300);
    expect(await caches.encoded("s2", "gzip", random)).toBeNull();
    // A failed load is not remembered.
    await expect(caches.rawBytes("s3", () => Promise.reject(new Error("gone")))).rejects.toThrow("gone");
    expect(await caches.rawBytes("s3", async () => text)).toBe(text);
  });
});

describe("preview tokens", () => {
  const secret = previewSecret("unit-test-preview-secret-0123456789abcdef");
  const claims = { websiteId: newId(), principal: { type: "api_key" as const, id: newId() } };
  it("round-trips, small and signed", () => {
    const now = Date.now();
    const token = mintPreviewToken(secret, claims, { now });
    expect(token.length).toBeLessThan(100);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[0-9a-z]+\.[0-9a-z]+\.[\w-]{22}$/);
    const verified = verifyPreviewToken(secret, token, now);
    expect(verified).toMatchObject(claims);
    expect(verified!.expiresAt - verified!.issuedAt).toBe(600_000);
  });
  it("refuses expired, tampered, foreign and malformed tokens", () => {
    const now = Date.now();
    const token = mintPreviewToken(secret, claims, { now, ttlMs: 60_000 });
    expect(verifyPreviewToken(secret, token, now + 61_000)).toBeUndefined();
    for (const type of ["user", "oauth_token"] as const) {
      const other = { websiteId: claims.websiteId, principal: { type, id: newId() } };
      expect(verifyPreviewToken(secret, mintPreviewToken(secret, other, { now }), now)).toMatchObject(other);
    }
    expect(
      verifyPreviewToken(previewSecret("another-secret-another-secret-another-1"), token, now),
    ).toBeUndefined();
    const parts = token.split(".");
    parts[3] = (Number.parseInt(parts[3]!, 36) + 3600).toString(36);
    expect(verifyPreviewToken(secret, parts.join("."), now)).toBeUndefined();
    const otherType = token.replace(/^([\w-]+)\.k/, "$1.u");
    expect(verifyPreviewToken(secret, otherType, now)).toBeUndefined();
    for (const bad of ["", "a.b.c.d.e", `${token}.x`, token.replace(/\.[^.]+$/, ".AAAA"), "x".repeat(500)]) {
      expect(verifyPreviewToken(secret, bad, now), bad).toBeUndefined();
    }
  });
  it("caps the lifetime at an hour and wants a long configured secret", () => {
    const now = Date.now();
    const verified = verifyPreviewToken(
      secret,
      mintPreviewToken(secret, claims, { now, ttlMs: 10 * 3_600_000 }),
      now,
    );
    expect(verified!.expiresAt - verified!.issuedAt).toBe(MAX_PREVIEW_TOKEN_TTL_MS);
    expect(() => previewSecret("short")).toThrow(/at least 32/);
    expect(previewSecret(undefined).byteLength).toBe(32);
    expect(previewSecret(undefined)).toBe(previewSecret(undefined));
  });
});

describeMatrix(
  "hosting on a configured sites domain",
  (ctx) => {
    it("serves <slug>.<sitesDomain> and leaves *.localhost to the API", async () => {
      const website = await ctx.t.createWebsite(`Domain site ${newId().slice(-6)}`);
      await publishFiles(ctx.t.platform, website.id, {
        "pages/index.tsx": "export default function Home() { return <h1>On the sites domain</h1>; }\n",
      });
      const get = async (host: string, path = "/") => {
        if (ctx.mode === "server") return rawRequest(Number(new URL(ctx.origin).port), host, path);
        const res = await ctx.t.app.fetch(new Request(`http://${host}${path}`, { headers: { host } }));
        return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      };
      const site = await get(`${website.slug}.sites.example.test:8443`);
      expect(site.status).toBe(200);
      expect(site.body.toString()).toContain("On the sites domain");
      // Another host is the API and app host: its /v1 answers, not the website.
      const other = await get(`${website.slug}.localhost`, "/v1/no-such-route");
      expect(other.status).toBe(404);
      expect(other.headers.get("content-type")).toMatch(/^application\/json/);
    });
  },
  { config: { sitesDomain: "sites.example.test" }, dialects: ["sqlite"] },
);
