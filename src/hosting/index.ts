import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { H3Event } from "h3";
import type { WebsiteRecord } from "../db/stores/websites.ts";
import type { CmsProvider } from "../framework/types.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { currentRequestId, noteOperation, reportFailure } from "../kernel/request-scope.ts";
import { recordPageView } from "../services/analytics/hits.ts";
import { makeVariant, variantKey, variantOf, variantType } from "../services/assets/variants.ts";
import { storeProvider } from "../services/cms/provider.ts";
import { SLUG_PATTERN } from "../services/websites/websites.ts";
import { ANALYTICS_PATH, analyticsGet, analyticsPost } from "./analytics.ts";
import { ASSET_PATH, serveAsset } from "./assets.ts";
import {
  customAddress,
  customHostMatcher,
  domainTarget,
  type LiveTarget,
  redirectReply,
  slugTarget,
} from "./domains.ts";
import { formEndpoint, isFormPath } from "./forms.ts";
import { type SiteAddress, siteHostMatcher } from "./host.ts";
import { WeightedLru } from "./lru.ts";
import { pages } from "./pages.ts";
import {
  authenticatePreview,
  canPreview,
  draftBuilds,
  PREVIEW_COOKIE,
  PREVIEW_TOKEN_PARAM,
  type PreviewBuild,
  previewSource,
  principalOfToken,
} from "./preview.ts";
import { previewSecret, verifyPreviewToken } from "./preview-token.ts";
import {
  ByteCaches,
  type CacheLimits,
  defaultCacheLimits,
  type FileSource,
  platformPage,
  type Reply,
  type RequestLike,
  type ResponsePolicy,
  respond,
  type ServedFile,
  toResponse,
} from "./respond.ts";

export type { SiteAddress } from "./host.ts";
export { PREVIEW_COOKIE, PREVIEW_TOKEN_PARAM } from "./preview.ts";

export interface HostingOptions {
  /** Byte budgets of the content-addressed caches (raw blobs, compressed bytes). */
  cache?: Partial<CacheLimits>;
  /** How long a built draft is reused while its content is unchanged (default 5 minutes). */
  previewBuildTtlMs?: number;
  /** The CMS content (draft values) a preview build reads; default: the website's CMS (draft values of every item). */
  previewCms?: (websiteId: string) => CmsProvider | undefined;
}

/** Serves published websites and draft previews by Host. */
export interface Hosting {
  /** The site a request addresses by its Host header; undefined for the API/app host and any other host. */
  match(event: H3Event): SiteAddress | undefined;
  /** `match`, then a custom domain of a website by its Host (one indexed read for hosts that could be one). */
  resolve(event: H3Event): Promise<SiteAddress | undefined>;
  /** Answers a request for `address` (never throws: failures become a 500 page). */
  serve(event: H3Event, address: SiteAddress, ip: string): Promise<Response>;
  /**
   * The node:http fast path of live sites: answers a GET or HEAD on a live site host straight on the socket
   * (same replies as `serve`, without building web Request and Response objects) and returns true; returns
   * false, touching nothing, for every other request (API host, previews, other methods).
   */
  serveNode(req: IncomingMessage, res: ServerResponse): boolean;
  /** A platform page for a status raised before `serve` (a malformed URL). */
  errorResponse(event: H3Event, status: number): Response;
  readonly caches: ByteCaches;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";
const ALLOW = { allow: "GET, HEAD" };

/** Published sites: validators, compression, hashed `_assets/` cached forever, everything else revalidated. */
const livePolicy: ResponsePolicy = {
  cacheControl: (file) => (file.path.startsWith("_assets/") ? IMMUTABLE : REVALIDATE),
  errorCacheControl: REVALIDATE,
  headers: {},
  conditional: true,
  compress: true,
};

/** Draft previews: never stored by any cache, never indexed. */
const PREVIEW_HEADERS = { "cache-control": "no-store", "x-robots-tag": "noindex" };
const previewPolicy: ResponsePolicy = {
  cacheControl: () => "no-store",
  errorCacheControl: "no-store",
  headers: { "x-robots-tag": "noindex" },
  conditional: false,
  compress: false,
};

const isSlug = (slug: string) => SLUG_PATTERN.test(slug) && !slug.includes("--");

/** Output records of deployments: immutable once published, so cached by (deployment, path) without expiry. */
const OUTPUT_ENTRIES = 50_000;

/** Where the fast path resolves request paths (only the path and query of `req.url` are used). */
const BASE = "http://site.invalid";

/** Paths that URL parsing leaves as they are: segments of plain characters, none empty or starting with a dot. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)*\/?$/;

/** Path and query of a request target (`/a/b?x`), resolved as the URL standard (and h3) resolve them. */
function splitPath(url: string): { pathname: string; search: string } {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (PLAIN_PATH.test(path))
    return { pathname: path, search: q === -1 || q === url.length - 1 ? "" : url.slice(q) };
  // Dot segments, backslashes and escapes: concatenated, not resolved against a base, so `//x` stays a path.
  const parsed = new URL(`${BASE}${url}`);
  return { pathname: parsed.pathname, search: parsed.search };
}

/** The client address on the fast path: the socket's, or the first `X-Forwarded-For` hop behind a trusted proxy. */
function nodeClientIp(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers["x-forwarded-for"] : undefined;
  const first = typeof forwarded === "string" ? forwarded.split(",")[0]!.trim() : "";
  return first || req.socket.remoteAddress || "unknown";
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";
let idPool = Buffer.alloc(0);
let idOffset = 0;

/** A request id shaped like the API's (`req_` + 21 characters), from pooled random bytes. */
function fastRequestId(): string {
  if (idOffset + 21 > idPool.length) {
    idPool = randomBytes(21 * 256);
    idOffset = 0;
  }
  let id = "req_";
  for (let i = 0; i < 21; i++) id += ID_ALPHABET[idPool[idOffset++]! & 63];
  return id;
}

export function createHosting(platform: Platform, options: HostingOptions = {}): Hosting {
  const matchHost = siteHostMatcher(platform.config.sitesDomain);
  const matchCustom = customHostMatcher(platform);
  const caches = new ByteCaches({ ...defaultCacheLimits, ...options.cache });
  const outputs = new WeightedLru<string, ServedFile>(OUTPUT_ENTRIES, 1);
  const secret = previewSecret(platform.config.previewSecret);
  const forms = formEndpoint(platform, secret);
  const builds = draftBuilds(platform, {
    ttlMs: options.previewBuildTtlMs ?? 5 * 60 * 1000,
    maxEntries: 16,
    cmsOf:
      options.previewCms ??
      ((websiteId) => storeProvider((work) => platform.db.read(work), websiteId, "preview")),
  });
  const secureCookie = platform.config.appUrl.startsWith("https:") ? "; Secure" : "";

  const hostOf = (event: H3Event) => event.req.headers.get("host") ?? event.url.host;
  const requestOf = (event: H3Event): RequestLike => ({
    method: event.req.method,
    pathname: event.url.pathname,
    search: event.url.search,
    headers: event.req.headers,
  });
  const bySlug = (slug: string): Promise<WebsiteRecord | undefined> =>
    isSlug(slug) ? platform.db.read((s) => s.websites.getBySlug(slug)) : Promise.resolve(undefined);

  /** The files of one deployment: output records (cached) and blob bytes. */
  const deploymentSource = (deploymentId: string): FileSource => ({
    async find(path) {
      const key = `${deploymentId}\n${path}`;
      const cached = outputs.get(key);
      if (cached) return cached;
      const found = await platform.db.read((s) => s.deployments.output(deploymentId, path));
      if (found) outputs.set(key, found, 1);
      return found;
    },
    async bytes(file) {
      const bytes = await platform.blobs.get(file.sha256);
      if (!bytes) throw new Error(`blob ${file.sha256} of ${deploymentId}:${file.path} is missing`);
      return bytes;
    },
  });

  /** An uploaded asset of the website (`/_assets/<sha256>/<name>`), on its live and preview hosts alike. */
  async function asset(request: RequestLike, slug: string, sha256: string, extra = {}): Promise<Reply> {
    const found = isSlug(slug)
      ? await platform.db.read(async (s) => {
          const website = await s.websites.getBySlug(slug);
          return website && s.assets.byBlob(website.id, sha256);
        })
      : undefined;
    if (!found) return platformPage(pages.pageNotFound(request.pathname), request.method, extra);
    const load = async () => {
      const bytes = await platform.blobs.get(sha256);
      if (!bytes) throw new Error(`blob ${sha256} of asset ${found.id} is missing`);
      return bytes;
    };
    const variant = variantOf(request.search, found.contentType);
    if (typeof variant === "string") {
      return platformPage(
        { ...pages.badRequest(), paragraphs: [`This image URL is invalid: ${variant}.`] },
        request.method,
        extra,
      );
    }
    if (!variant) return serveAsset(request, found, load, caches, extra);
    // A variant is cached like any content by its own key (the original's hash and the snapped parameters).
    const original = () => caches.rawBytes(sha256, load);
    return serveAsset(
      request,
      { sha256: variantKey(sha256, variant), contentType: variantType(variant.format) },
      async () => makeVariant(await original(), variant),
      caches,
      extra,
    );
  }

  /** Where a live or custom-domain request goes (read on every request). */
  async function liveTarget(address: SiteAddress): Promise<LiveTarget> {
    const now = Date.now();
    if (address.kind === "custom") {
      return platform.db.read(async (s) => {
        const record = await s.domains.byHostname(address.hostname!);
        return record ? domainTarget(platform, s, record, now) : ({ kind: "none" } as const);
      });
    }
    return isSlug(address.slug)
      ? platform.db.read((s) => slugTarget(platform, s, address.slug, now))
      : { kind: "none" };
  }

  /**
   * A live site's reply, by platform subdomain or custom domain. The pointer is read on every request: a publish
   * or rollback is seen at once, on every node; so are primary domains and redirects.
   */
  async function live(request: RequestLike, address: SiteAddress, host: string, ip: string): Promise<Reply> {
    const assetPath = ASSET_PATH.exec(request.pathname);
    if (assetPath && address.kind === "live") return asset(request, address.slug, assetPath[1]!);
    const service = analyticsGet(request.pathname, request.search, secureCookie !== "");
    if (service) return service;
    const target = await liveTarget(address);
    if (target.kind === "redirect") return redirectReply(target.origin, request.pathname, request.search);
    if (target.kind === "none") return platformPage(pages.siteNotFound(host), request.method);
    if (assetPath) return asset(request, target.slug, assetPath[1]!);
    if (!target.deploymentId) return platformPage(pages.siteNotFound(host), request.method);
    if (isFormPath(request.pathname)) return forms.get(request, target.websiteId);
    const reply = await respond(request, deploymentSource(target.deploymentId), livePolicy, caches);
    recordPageView(platform.analytics, target.websiteId, host, request, reply, ip);
    return reply;
  }

  /** A form post to a live site (a custom domain's too; a redirecting host does not redirect a post). */
  async function livePost(event: H3Event, address: SiteAddress, ip: string): Promise<Reply> {
    const target = await liveTarget(address);
    if (target.kind !== "serve" || !target.deploymentId) {
      return platformPage(pages.siteNotFound(hostOf(event)), event.req.method);
    }
    return forms.post(event, { websiteId: target.websiteId, deploymentId: target.deploymentId }, ip);
  }

  async function preview(event: H3Event, address: SiteAddress, ip: string): Promise<Reply> {
    const { method } = event.req;
    // Assets are public on the live host; the preview host serves them too, so draft pages can use them.
    const assetPath = ASSET_PATH.exec(event.url.pathname);
    if (assetPath) return asset(requestOf(event), address.slug, assetPath[1]!, PREVIEW_HEADERS);
    // Where a visitor without credentials signs in to the dashboard and opens this preview as themselves.
    const signIn = new URL(isSlug(address.slug) ? `/preview/${address.slug}` : "/", platform.config.appUrl)
      .href;
    const token = event.url.searchParams.get(PREVIEW_TOKEN_PARAM);
    if (token !== null) {
      // A preview link: check its token, keep it in a cookie of this host, and drop it from the address.
      const claims = verifyPreviewToken(secret, token);
      const principal = claims && (await principalOfToken(platform, claims));
      const website = principal ? await bySlug(address.slug) : undefined;
      if (
        !claims ||
        !principal ||
        !website ||
        website.id !== claims.websiteId ||
        !canPreview(principal, website)
      ) {
        return platformPage(
          pages.previewUnauthorized("The preview link has expired or is no longer valid.", signIn),
          method,
          PREVIEW_HEADERS,
        );
      }
      const rest = new URLSearchParams(event.url.search);
      rest.delete(PREVIEW_TOKEN_PARAM);
      const query = rest.toString();
      const maxAge = Math.max(0, Math.floor((claims.expiresAt - Date.now()) / 1000));
      return {
        status: 303,
        headers: {
          location: `${event.url.pathname}${query ? `?${query}` : ""}`,
          "set-cookie": `${PREVIEW_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookie}`,
          "content-length": "0",
          ...PREVIEW_HEADERS,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        },
        body: null,
      };
    }
    const auth = await authenticatePreview(platform, secret, event.req, ip);
    if (!auth.ok) {
      const page = { ...pages.previewUnauthorized(auth.message, signIn), status: auth.status };
      return platformPage(page, method, {
        ...PREVIEW_HEADERS,
        ...(auth.status === 401 ? { "www-authenticate": 'Bearer realm="Sitewright preview"' } : {}),
        ...auth.headers,
      });
    }
    const website = await bySlug(address.slug);
    if (auth.websiteId && auth.websiteId !== website?.id) {
      return platformPage(
        pages.previewUnauthorized("This preview link is for another website.", signIn),
        method,
        PREVIEW_HEADERS,
      );
    }
    // A website out of the credential's reach is not found, as in the API: its existence never leaks.
    if (!website || !canPreview(auth.principal, website)) {
      return platformPage(pages.siteNotFound(hostOf(event)), method, PREVIEW_HEADERS);
    }
    let build: PreviewBuild;
    try {
      build = await builds.build(website);
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === "rate_limited")) throw error;
      return platformPage(pages.previewBusy(error.message, error.options.retryAfterSeconds ?? 1), method, {
        ...PREVIEW_HEADERS,
        "retry-after": String(error.options.retryAfterSeconds ?? 1),
      });
    }
    if (!build.ok) {
      return platformPage(
        pages.previewBuildFailed(build.diagnostics, build.message),
        method,
        PREVIEW_HEADERS,
      );
    }
    return respond(requestOf(event), previewSource(build), previewPolicy, caches);
  }

  const failed = (error: unknown, method: string, extra: Record<string, string> = {}): Reply => {
    reportFailure(platform.log, "hosting", error);
    return platformPage(pages.serverError(), method, extra);
  };

  return {
    caches,
    match: (event) => matchHost(hostOf(event)),
    async resolve(event) {
      const host = hostOf(event);
      const address = matchHost(host);
      if (address) return address;
      const hostname = matchCustom(host);
      if (!hostname) return undefined;
      const found = await platform.db.read((s) => s.domains.byHostname(hostname));
      return found ? customAddress(hostname) : undefined;
    },
    async serve(event, address, ip) {
      const { method } = event.req;
      const extra = address.kind === "preview" ? PREVIEW_HEADERS : {};
      noteOperation(address.kind === "preview" ? "hosting.preview" : "hosting");
      if (method === "POST" && address.kind !== "preview" && isFormPath(event.url.pathname)) {
        try {
          return toResponse(await livePost(event, address, ip));
        } catch (error) {
          return toResponse(failed(error, method));
        }
      }
      if (address.kind !== "preview" && method === "POST" && event.url.pathname === ANALYTICS_PATH) {
        const website = async () => {
          const target = await liveTarget(address);
          return target.kind === "serve" && target.deploymentId ? target.websiteId : null;
        };
        return toResponse(
          await analyticsPost(platform, event, website, hostOf(event), ip).catch((error: unknown) =>
            failed(error, method),
          ),
        );
      }
      if (method !== "GET" && method !== "HEAD") {
        return toResponse(platformPage(pages.methodNotAllowed(method), method, { ...extra, ...ALLOW }));
      }
      try {
        return toResponse(
          address.kind !== "preview"
            ? await live(requestOf(event), address, hostOf(event), ip)
            : await preview(event, address, ip),
        );
      } catch (error) {
        return toResponse(failed(error, method, extra));
      }
    },
    serveNode(req, res) {
      const { method, url } = req;
      if ((method !== "GET" && method !== "HEAD") || !url || url[0] !== "/") return false;
      const host = req.headers.host;
      const address = matchHost(host);
      if (address?.kind !== "live") return false;
      const request: RequestLike = {
        method,
        ...splitPath(url),
        headers: { get: (name) => (req.headers[name] as string | undefined) ?? null },
      };
      const requestId = currentRequestId(fastRequestId);
      noteOperation("hosting");
      live(request, address, host!, nodeClientIp(req, platform.config.trustProxy))
        .catch((error: unknown) => failed(error, method))
        .then((reply) => {
          const raw: string[] = ["x-request-id", requestId];
          for (const name in reply.headers) raw.push(name, reply.headers[name]!);
          res.writeHead(reply.status, raw);
          res.end(reply.body ?? undefined);
        })
        .catch((error: unknown) => {
          platform.log.error("hosting", error);
          res.destroy();
        });
      return true;
    },
    errorResponse(event, status) {
      const page =
        status === 400
          ? pages.badRequest()
          : status >= 500
            ? pages.serverError()
            : pages.pageNotFound(event.url.pathname);
      return toResponse(platformPage(page, event.req.method));
    },
  };
}
