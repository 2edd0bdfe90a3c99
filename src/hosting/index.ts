import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { H3Event } from "h3";
import type { CmsProvider } from "../framework/types.ts";
import type { Platform } from "../kernel/platform.ts";
import { currentRequestId, noteOperation, reportFailure } from "../kernel/request-scope.ts";
import { recordPageView } from "../services/analytics/hits.ts";
import type { SiteAddress } from "./host.ts";
import { HotReplies } from "./hot-replies.ts";
import { pages } from "./pages.ts";
import { previewSecret } from "./preview-token.ts";
import { hostResolver } from "./resolve.ts";
import {
  ByteCaches,
  type CacheLimits,
  defaultCacheLimits,
  platformPage,
  type Reply,
  type RequestLike,
  toResponse,
} from "./respond.ts";
import { serviceRoutes } from "./service-routes.ts";
import { PREVIEW_HEADERS, sitePages } from "./site-pages.ts";

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

const ALLOW = { allow: "GET, HEAD" };

/** Bounds of the replies the fast path writes again (their bodies are mostly shared with the byte caches). */
const HOT_LIMITS = { entries: 4096, bytes: 16 * 1024 * 1024 };

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

/**
 * A request's headers as `RequestLike` reads them. A class, not a closure per request: the fast path allocates
 * as little as it can (bench:hosting).
 */
class NodeHeaders {
  constructor(private readonly req: IncomingMessage) {}
  get(name: string): string | null {
    return (this.req.headers[name] as string | undefined) ?? null;
  }
}

/**
 * Writes a reply on node:http with its request id first, headers as one flat array: the reply's own `flat` list
 * when it has one (node:http copies the list before `writeHead` returns, so filling in the id is safe).
 */
function writeReply(res: ServerResponse, requestId: string, reply: Reply): void {
  let flat = reply.flat;
  if (flat) flat[1] = requestId;
  else {
    flat = ["x-request-id", requestId];
    for (const name in reply.headers) flat.push(name, reply.headers[name]!);
  }
  res.writeHead(reply.status, flat);
  res.end(reply.body ?? undefined);
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";
const ID_LENGTH = 25;
const IDS_PER_POOL = 256;
let idPool = "";
let idOffset = 0;

/**
 * A request id shaped like the API's (`req_` + 21 characters). Ids are made 256 at a time from random bytes, as
 * one flat string: each id is a slice of it (no per-character concatenation, nothing to flatten when written).
 */
function fastRequestId(): string {
  if (idOffset === idPool.length) {
    const bytes = randomBytes(21 * IDS_PER_POOL);
    const ids: string[] = [];
    for (let n = 0; n < IDS_PER_POOL; n++) {
      let id = "req_";
      for (let i = n * 21; i < n * 21 + 21; i++) id += ID_ALPHABET[bytes[i]! & 63];
      ids.push(id);
    }
    idPool = ids.join("");
    idOffset = 0;
  }
  idOffset += ID_LENGTH;
  return idPool.slice(idOffset - ID_LENGTH, idOffset);
}

export function createHosting(platform: Platform, options: HostingOptions = {}): Hosting {
  const hosts = hostResolver(platform);
  const caches = new ByteCaches({ ...defaultCacheLimits, ...options.cache });
  const secret = previewSecret(platform.config.previewSecret);
  const secureCookie = platform.config.appUrl.startsWith("https:") ? "; Secure" : "";
  const services = serviceRoutes(platform, secret, hosts.target, secureCookie !== "");
  const sites = sitePages({
    platform,
    caches,
    hosts,
    services,
    previewSecret: secret,
    secureCookie,
    previewBuildTtlMs: options.previewBuildTtlMs ?? 5 * 60 * 1000,
    previewCms: options.previewCms,
  });

  // Only where every change the lookups depend on is seen without a query (SQLite): see `HotReplies`.
  const hot = platform.db.externalVersion ? new HotReplies(hosts.generation, HOT_LIMITS) : undefined;

  const hostOf = (event: H3Event) => event.req.headers.get("host") ?? event.url.host;
  const requestOf = (event: H3Event): RequestLike => ({
    method: event.req.method,
    pathname: event.url.pathname,
    search: event.url.search,
    headers: event.req.headers,
  });
  const failed = (error: unknown, method: string, extra: Record<string, string> = {}): Reply => {
    reportFailure(platform.log, "hosting", error);
    return platformPage(pages.serverError(), method, extra);
  };

  return {
    caches,
    match: (event) => hosts.match(hostOf(event)),
    resolve: (event) => hosts.resolve(hostOf(event)),
    async serve(event, address, ip) {
      const { method } = event.req;
      const extra = address.kind === "preview" ? PREVIEW_HEADERS : {};
      noteOperation(address.kind === "preview" ? "hosting.preview" : "hosting");
      if (method === "POST" && address.kind !== "preview") {
        const posted = services.post(event, address, hostOf(event), ip);
        if (posted) return toResponse(await posted.catch((error: unknown) => failed(error, method)));
      }
      const previewPost =
        method === "POST" && address.kind === "preview" ? services.previewPost(event) : undefined;
      if (previewPost) return toResponse({ ...previewPost, headers: { ...previewPost.headers, ...extra } });
      if (method !== "GET" && method !== "HEAD") {
        return toResponse(platformPage(pages.methodNotAllowed(method), method, { ...extra, ...ALLOW }));
      }
      try {
        return toResponse(
          address.kind !== "preview"
            ? (sites.liveNow(requestOf(event), address, hostOf(event), ip) ??
                (await sites.live(requestOf(event), address, hostOf(event), ip)))
            : await sites.preview(event, requestOf(event), address, ip),
        );
      } catch (error) {
        return toResponse(failed(error, method, extra));
      }
    },
    serveNode(req, res) {
      const { method, url } = req;
      if ((method !== "GET" && method !== "HEAD") || !url || url[0] !== "/") return false;
      const { headers } = req;
      const host = headers.host;
      if (!host) return false;
      // A page served a moment ago, nothing it was read from changed since: written again as it was.
      const validated = headers["if-none-match"] !== undefined;
      const encodings = headers["accept-encoding"];
      const again = validated || !hot ? undefined : hot.get(host, url, method, encodings);
      if (again) {
        const { reply } = again;
        writeReply(res, currentRequestId(fastRequestId), reply);
        noteOperation("hosting");
        const request = {
          method,
          pathname: again.pathname,
          search: again.search,
          headers: new NodeHeaders(req),
        };
        const ip = nodeClientIp(req, platform.config.trustProxy);
        recordPageView(platform.analytics, again.websiteId, host, request, reply, ip);
        return true;
      }
      // Site subdomains, and custom domains this node resolved a moment ago (others take the h3 path once).
      const address = hosts.matchKnown(host);
      if (!address || address.kind === "preview") return false;
      const { pathname, search } = splitPath(url);
      const request: RequestLike = { method, pathname, search, headers: new NodeHeaders(req) };
      const requestId = currentRequestId(fastRequestId);
      noteOperation("hosting");
      const ip = nodeClientIp(req, platform.config.trustProxy);
      // A cached page is written at once, as a static file server writes it; anything else reads first.
      const generation = hot?.generation();
      const now = sites.liveNow(
        request,
        address,
        host,
        ip,
        hot &&
          ((reply, websiteId, until) =>
            hot.set(host, url, method, encodings, generation!, until, {
              reply,
              websiteId,
              pathname,
              search,
            })),
      );
      if (now) {
        writeReply(res, requestId, now);
        return true;
      }
      sites
        .live(request, address, host, ip)
        .catch((error: unknown) => failed(error, method))
        .then((reply) => writeReply(res, requestId, reply))
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
