import { readCookie } from "../accounts/cookies.ts";
import { authenticate, principalOfKey } from "../auth/authenticate.ts";
import { loadUserPrincipal } from "../auth/users.ts";
import { sha256Hex } from "../blobs/index.ts";
import type { WebsiteRecord } from "../db/stores/websites.ts";
import { buildSite, snapshotCms } from "../framework/index.ts";
import type { CmsProvider, CmsSnapshot, Diagnostic } from "../framework/types.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { grantsOnWebsite, type Principal } from "../kernel/principal.ts";
import { grantHolds } from "../kernel/roles.ts";
import { narrowToConsent } from "../oauth/tokens.ts";
import { type PreviewTokenClaims, verifyPreviewToken } from "./preview-token.ts";
import type { FileSource, ServedFile } from "./respond.ts";

/** Query parameter that carries a preview token once; it is exchanged for a cookie of the preview host. */
export const PREVIEW_TOKEN_PARAM = "sitewright_preview";
/** Cookie of a preview host holding its preview token (host-only, HttpOnly, SameSite=Lax). */
export const PREVIEW_COOKIE = "sitewright_preview";

const HTML = "text/html; charset=utf-8";

/** A built draft: its files in memory, or why it does not build. */
export type PreviewBuild =
  | { ok: true; files: Map<string, { file: ServedFile; body: Uint8Array }> }
  | { ok: false; diagnostics: Diagnostic[]; message: string };

/** Who may preview: an API key (Bearer or through a token) whose grant reaches the website. */
export type PreviewAuth =
  /** `websiteId`: the website a token was minted for (it must be the host's). */
  | { ok: true; principal: Principal; websiteId?: string }
  | { ok: false; status: 401 | 429; message: string; headers?: Record<string, string> };

export interface DraftBuilds {
  /**
   * The current draft of `website`, built in preview mode (cached by the draft's content for a while) in its
   * organization's queue of the build sandbox. Rejects with `rate_limited` when that queue is full.
   */
  build(website: { id: string; organizationId: string }): Promise<PreviewBuild>;
}

/**
 * Preview builds by draft content: the key is a SHA-256 over the draft's (path, sha256) list, read on every
 * request, so an edit shows on the next reload while an unchanged draft is built once. Concurrent requests of
 * one draft (a page and its stylesheet) share one build; entries expire after `ttlMs` and at most `maxEntries`
 * are kept.
 */
export function draftBuilds(
  platform: Platform,
  options: {
    ttlMs: number;
    maxEntries: number;
    /** The website's CMS content in draft values (the hook for the CMS service; none yet). */
    cmsOf?: (websiteId: string) => CmsProvider | undefined;
  },
): DraftBuilds {
  const cache = new Map<string, { expires: number; build: Promise<PreviewBuild> }>();

  const sweep = (now: number) => {
    for (const [key, entry] of cache) if (entry.expires <= now) cache.delete(key);
    while (cache.size >= options.maxEntries) cache.delete(cache.keys().next().value!);
  };

  async function run(
    organizationId: string,
    rows: { path: string; sha256: string }[],
    snapshot: CmsSnapshot | undefined,
  ): Promise<PreviewBuild> {
    const texts = await platform.db.read((s) => s.sourceFiles.getContents(rows.map((row) => row.sha256)));
    const files = new Map<string, string>();
    for (const row of rows) {
      const text = texts.get(row.sha256);
      // Swept between the two reads (the draft changed meanwhile): fail this request, not remembered.
      if (text === undefined) throw new Error(`content ${row.sha256} of draft file ${row.path} is missing`);
      files.set(row.path, text);
    }
    try {
      const cms: CmsProvider | undefined = snapshot
        ? { collections: () => Object.keys(snapshot), list: (name) => snapshot[name] ?? [] }
        : undefined;
      const result = await buildSite({
        files,
        organizationId,
        mode: "preview",
        limits: platform.config.buildLimits,
        ...(cms ? { cms } : {}),
      });
      const out = new Map<string, { file: ServedFile; body: Uint8Array }>();
      for (const page of result.pages) {
        const body = Buffer.from(page.html);
        out.set(page.path, {
          file: { path: page.path, sha256: sha256Hex(body), contentType: HTML, size: body.byteLength },
          body,
        });
      }
      for (const asset of result.assets) {
        out.set(asset.path, {
          file: {
            path: asset.path,
            sha256: asset.sha256,
            contentType: asset.contentType,
            size: asset.body.byteLength,
          },
          body: asset.body,
        });
      }
      return { ok: true, files: out };
    } catch (error) {
      if (error instanceof ApiError && error.kind === "validation") {
        return {
          ok: false,
          diagnostics: (error.options.details as Diagnostic[] | undefined) ?? [],
          message: error.message,
        };
      }
      throw error;
    }
  }

  return {
    async build({ id: websiteId, organizationId }) {
      const rows = await platform.db.read((s) => s.sourceFiles.list(websiteId, {}));
      // The CMS content is part of the key: an edited item shows in the next preview request.
      const provider = options.cmsOf?.(websiteId);
      let snapshot: CmsSnapshot | undefined;
      try {
        snapshot = provider ? await snapshotCms(provider, "preview") : undefined;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, diagnostics: [], message };
      }
      const cmsKey = snapshot ? sha256Hex(Buffer.from(JSON.stringify(snapshot))) : "";
      const key = `${websiteId}:${sha256Hex(Buffer.from(rows.map((r) => `${r.path}\0${r.sha256}\n`).join("")))}:${cmsKey}`;
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && hit.expires > now) return hit.build;
      sweep(now);
      const build = run(organizationId, rows, snapshot);
      cache.set(key, { expires: now + options.ttlMs, build });
      // Unexpected failures (not a draft's own errors) are not remembered.
      build.catch(() => cache.delete(key));
      return build;
    },
  };
}

/** A preview build as a file source (bytes already in memory). */
export function previewSource(build: Extract<PreviewBuild, { ok: true }>): FileSource {
  return {
    inMemory: true,
    find: async (path) => build.files.get(path)?.file,
    bytes: async (file) => build.files.get(file.path)!.body,
  };
}

/** Whether `principal` may preview `website`: a grant in its organization that reaches it (any editor role). */
export function canPreview(principal: Principal, website: WebsiteRecord): boolean {
  return grantsOnWebsite(principal, website.organizationId, website.id).some((grant) =>
    grantHolds(grant.role, grant.websiteIds !== undefined, "content_editor"),
  );
}

/**
 * The principal behind a verified token, as the database says now: an API key still active and not rotated since
 * the token was issued; a user who still exists; an OAuth connection not revoked (its user's current grants,
 * narrowed to the consent).
 */
export async function principalOfToken(
  platform: Platform,
  claims: PreviewTokenClaims,
): Promise<Principal | undefined> {
  const { type, id } = claims.principal;
  return platform.db.read(async (stores) => {
    if (type === "user") return loadUserPrincipal(stores, id);
    if (type === "oauth_token") {
      const grant = await stores.oauth.getGrant(id);
      if (!grant || grant.revokedAt !== null) return undefined;
      const user = await loadUserPrincipal(stores, grant.userId);
      return user && narrowToConsent(user, grant);
    }
    const key = await stores.apiKeys.get(id);
    if (!key || key.revokedAt !== null) return undefined;
    if (key.expiresAt !== null && key.expiresAt <= Date.now()) return undefined;
    if (key.rotatedAt !== null && Math.floor(key.rotatedAt / 1000) * 1000 > claims.issuedAt) return undefined;
    return principalOfKey(key);
  });
}

/**
 * Authenticates a preview request: `Authorization: Bearer <API key>` (the API's own authentication, with its
 * throttling of failures), else the preview cookie's token.
 */
export async function authenticatePreview(
  platform: Platform,
  secret: Buffer,
  request: Request,
  ip: string,
): Promise<PreviewAuth> {
  if (request.headers.has("authorization")) {
    try {
      return { ok: true, principal: await authenticate(platform, request, ip) };
    } catch (error) {
      if (error instanceof ApiError) {
        return {
          ok: false,
          status: error.kind === "rate_limited" ? 429 : 401,
          message: error.message,
          ...(error.options.headers ? { headers: error.options.headers } : {}),
        };
      }
      throw error;
    }
  }
  const token = readCookie(request, PREVIEW_COOKIE);
  if (token) {
    const claims = verifyPreviewToken(secret, token);
    const principal = claims && (await principalOfToken(platform, claims));
    if (principal) return { ok: true, principal, websiteId: claims.websiteId };
    return { ok: false, status: 401, message: "The preview link has expired or is no longer valid." };
  }
  return { ok: false, status: 401, message: "This preview needs credentials." };
}
