import type { BucketSpec } from "../db/database.ts";
import type { Platform } from "../kernel/platform.ts";

/** Scopes of the MCP resource: read-only tools, and everything the consented role allows. */
export const SCOPES = ["mcp:read", "mcp:write"] as const;
export const SCOPE_ALL = SCOPES.join(" ");

/** Access tokens and refresh tokens carry a prefix, so an API key is never mistaken for one. */
export const ACCESS_TOKEN_PREFIX = "swo_at_";
export const REFRESH_TOKEN_PREFIX = "swo_rt_";

/** Tunables of the authorization server; tests and local development change some of them. */
export interface OAuthSettings {
  /** Accept Client ID Metadata Documents on loopback (http or https); defaults to the platform's configuration. */
  allowLoopbackClientIds: boolean;
  /** Extra trusted CA (PEM) for fetching metadata documents (tests serve them with a self-signed certificate). */
  ca?: string;
  codeTtlMs: number;
  accessTokenTtlMs: number;
  refreshTokenTtlMs: number;
  /** Dynamic Client Registration requests per client IP. */
  registrationBucket: BucketSpec;
  /** Metadata document fetches: time limit, size cap, cache bounds. */
  documentTimeoutMs: number;
  documentMaxBytes: number;
  documentMinCacheMs: number;
  documentMaxCacheMs: number;
}

const overrides = new WeakMap<Platform, Partial<OAuthSettings>>();

/** Changes the authorization server's settings of one platform (tests, local development). */
export function configureOAuth(platform: Platform, settings: Partial<OAuthSettings>): void {
  overrides.set(platform, { ...overrides.get(platform), ...settings });
}

export function oauthSettings(platform: Platform): OAuthSettings {
  return {
    allowLoopbackClientIds: platform.config.allowLoopbackClientIds,
    codeTtlMs: 10 * 60 * 1000,
    accessTokenTtlMs: 60 * 60 * 1000,
    refreshTokenTtlMs: 30 * 24 * 60 * 60 * 1000,
    registrationBucket: { capacity: 20, refillPerSecond: 20 / 3600 },
    documentTimeoutMs: 5000,
    documentMaxBytes: 64 * 1024,
    documentMinCacheMs: 5 * 60 * 1000,
    documentMaxCacheMs: 24 * 60 * 60 * 1000,
    ...overrides.get(platform),
  };
}

/** The issuer: the app host's origin (no trailing slash). */
export const issuerOf = (platform: Platform) => new URL(platform.config.appUrl).origin;

/** The one resource tokens are issued for: `{base_url}/mcp`. */
export const resourceOf = (platform: Platform) => `${platform.config.baseUrl.replace(/\/$/, "")}/mcp`;

/** The Protected Resource Metadata URL of the MCP resource (RFC 9728 §3.1: well-known inserted before the path). */
export function resourceMetadataUrlOf(platform: Platform): string {
  const resource = new URL(resourceOf(platform));
  return `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname}`;
}
