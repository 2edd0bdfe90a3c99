import type { H3Event } from "h3";
import type { AssetRecord } from "../db/stores/assets.ts";
import { UnchangedCache } from "../db/stores/unchanged-cache.ts";
import { writeGeneration } from "../db/write-generation.ts";
import type { CmsProvider } from "../framework/types.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { recordPageView } from "../services/analytics/hits.ts";
import { makeVariant, variantKey, variantOf, variantType } from "../services/assets/variants.ts";
import { storeProvider } from "../services/cms/provider.ts";
import { ASSET_PATH, serveAsset } from "./assets.ts";
import { redirectReply } from "./domains.ts";
import type { SiteAddress } from "./host.ts";
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
import { verifyPreviewToken } from "./preview-token.ts";
import { HOST_CACHE_TTL_MS, type HostResolver, isSlug } from "./resolve.ts";
import {
  type ByteCaches,
  cachedReply,
  type FileSource,
  platformPage,
  type Reply,
  type RequestLike,
  type ResponsePolicy,
  respond,
  type ServedFile,
} from "./respond.ts";
import type { ServiceRoutes } from "./service-routes.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";

/** Published sites: validators, compression, hashed `_assets/` cached forever, everything else revalidated. */
const livePolicy: ResponsePolicy = {
  cacheControl: (file) => (file.path.startsWith("_assets/") ? IMMUTABLE : REVALIDATE),
  errorCacheControl: REVALIDATE,
  headers: {},
  conditional: true,
  compress: true,
};

/** Draft previews: never stored by any cache, never indexed. */
export const PREVIEW_HEADERS = { "cache-control": "no-store", "x-robots-tag": "noindex" };
const previewPolicy: ResponsePolicy = {
  cacheControl: () => "no-store",
  errorCacheControl: "no-store",
  headers: { "x-robots-tag": "noindex" },
  conditional: false,
  compress: false,
};

/** Output records of deployments: immutable once published, so cached by (deployment, path) without expiry. */
const OUTPUT_ENTRIES = 50_000;
/**
 * Asset records by (slug, sha256): reused until this process writes websites or assets (an asset deletion, a
 * rename), another SQLite process commits, or `HOST_CACHE_TTL_MS` passes (a deletion through another node).
 */
const ASSET_ENTRIES = 10_000;

/** What page serving needs from the rest of hosting. */
export interface SitePagesContext {
  platform: Platform;
  caches: ByteCaches;
  hosts: HostResolver;
  services: ServiceRoutes;
  previewSecret: Buffer;
  /** `; Secure` when the platform is served over https (cookies of preview hosts), else empty. */
  secureCookie: string;
  previewBuildTtlMs: number;
  previewCms?: (websiteId: string) => CmsProvider | undefined;
}

/** Page serving: the GET and HEAD replies of live sites, custom domains, uploaded assets and draft previews. */
export interface SitePages {
  /** A live site's reply, by platform subdomain or custom domain (reading what `liveNow` finds in memory). */
  live(request: RequestLike, address: SiteAddress, host: string, ip: string): Promise<Reply>;
  /**
   * `live` answered from memory alone, at once (a cached page of a site whose host and publish pointer are cached
   * and fresh); undefined when anything has to be read first: then `live` answers. `reusable` hears of a reply that
   * may be written again as it is (`Reply.flat`) while nothing its lookups read changed, until `until`.
   */
  liveNow(
    request: RequestLike,
    address: SiteAddress,
    host: string,
    ip: string,
    reusable?: (reply: Reply, websiteId: string, until: number) => void,
  ): Reply | undefined;
  /** A draft preview's reply (credentials checked first). */
  preview(event: H3Event, request: RequestLike, address: SiteAddress, ip: string): Promise<Reply>;
}

/** The page server of hosting. */
export function sitePages(context: SitePagesContext): SitePages {
  const { platform, caches, hosts, services, previewSecret: secret, secureCookie } = context;
  const outputs = new WeightedLru<string, ServedFile>(OUTPUT_ENTRIES, 1);
  const { externalVersion } = platform.db;
  const assets = new UnchangedCache<string, AssetRecord | undefined>(
    ASSET_ENTRIES,
    writeGeneration(
      ["websites", "assets"],
      externalVersion && ((tables) => platform.db.externalVersion!(tables)),
    ),
    HOST_CACHE_TTL_MS,
  );
  const builds = draftBuilds(platform, {
    ttlMs: context.previewBuildTtlMs,
    maxEntries: 16,
    cmsOf:
      context.previewCms ??
      ((websiteId) => storeProvider((work) => platform.db.read(work), websiteId, "preview")),
  });

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
      ? await assets.through(
          `${slug}\n${sha256}`,
          () =>
            platform.db.read(async (s) => {
              const website = await s.websites.getBySlug(slug);
              return website && s.assets.byBlob(website.id, sha256);
            }),
          // Only found assets are kept: an upload on another node is served at once.
          Boolean,
        )
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

  /** A page of a cached deployment from memory (the hot path of `live`); see `SitePages.liveNow`. */
  const liveNow: SitePages["liveNow"] = (request, address, host, ip, reusable) => {
    if (ASSET_PATH.test(request.pathname)) return undefined;
    const target = hosts.targetNow(address);
    if (target?.kind !== "serve" || !target.deploymentId || services.before(request)) return undefined;
    if (services.get(request, target.websiteId)) return undefined;
    const prefix = `${target.deploymentId}\n`;
    const reply = cachedReply(request, (path) => outputs.get(prefix + path), livePolicy, caches);
    if (!reply) return undefined;
    recordPageView(platform.analytics, target.websiteId, host, request, reply, ip);
    if (reply.flat && target.until !== undefined) reusable?.(reply, target.websiteId, target.until);
    return reply;
  };

  /**
   * A publish or rollback is served by the next request on every node (the pointer is read, or cached only where
   * every commit to it is seen: `hostResolver`); so are primary domains and redirects changed through this node.
   */
  async function live(request: RequestLike, address: SiteAddress, host: string, ip: string): Promise<Reply> {
    const assetPath = ASSET_PATH.exec(request.pathname);
    if (assetPath && address.kind === "live") return asset(request, address.slug, assetPath[1]!);
    const service = services.before(request);
    if (service) return service;
    const target = await hosts.target(address);
    if (target.kind === "redirect") return redirectReply(target.origin, request.pathname, request.search);
    if (target.kind === "none") return platformPage(pages.siteNotFound(host), request.method);
    if (assetPath) return asset(request, target.slug, assetPath[1]!);
    if (!target.deploymentId) return platformPage(pages.siteNotFound(host), request.method);
    const form = services.get(request, target.websiteId);
    if (form) return form;
    const reply = await respond(request, deploymentSource(target.deploymentId), livePolicy, caches);
    recordPageView(platform.analytics, target.websiteId, host, request, reply, ip);
    return reply;
  }

  async function preview(
    event: H3Event,
    request: RequestLike,
    address: SiteAddress,
    ip: string,
  ): Promise<Reply> {
    const { method } = request;
    const hostOf = () => event.req.headers.get("host") ?? event.url.host;
    // Assets are public on the live host; the preview host serves them too, so draft pages can use them.
    const assetPath = ASSET_PATH.exec(request.pathname);
    if (assetPath) return asset(request, address.slug, assetPath[1]!, PREVIEW_HEADERS);
    // Where a visitor without credentials signs in to the dashboard and opens this preview as themselves.
    const signIn = new URL(isSlug(address.slug) ? `/preview/${address.slug}` : "/", platform.config.appUrl)
      .href;
    const token = event.url.searchParams.get(PREVIEW_TOKEN_PARAM);
    if (token !== null) {
      // A preview link: check its token, keep it in a cookie of this host, and drop it from the address.
      const claims = verifyPreviewToken(secret, token);
      const principal = claims && (await principalOfToken(platform, claims));
      const website = principal ? await hosts.website(address.slug) : undefined;
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
    const website = await hosts.website(address.slug);
    if (auth.websiteId && auth.websiteId !== website?.id) {
      return platformPage(
        pages.previewUnauthorized("This preview link is for another website.", signIn),
        method,
        PREVIEW_HEADERS,
      );
    }
    // A website out of the credential's reach is not found, as in the API: its existence never leaks.
    if (!website || !canPreview(auth.principal, website)) {
      return platformPage(pages.siteNotFound(hostOf()), method, PREVIEW_HEADERS);
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
    return respond(request, previewSource(build), previewPolicy, caches);
  }

  return { live, liveNow, preview };
}
