import type { BucketSpec } from "../db/database.ts";

/**
 * Tunables of the authorization server, part of the platform's configuration (`PlatformConfig.oauth`). Whether
 * loopback client ids are accepted is `PlatformConfig.allowLoopbackClientIds`.
 */
export interface OAuthConfig {
  /** Extra trusted CA (PEM) for fetching client metadata documents (tests serve them with a self-signed one). */
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

/** The authorization server's defaults: codes live 10 minutes, access tokens an hour, refresh tokens 30 days. */
export const defaultOAuthConfig = (): OAuthConfig => ({
  codeTtlMs: 10 * 60 * 1000,
  accessTokenTtlMs: 60 * 60 * 1000,
  refreshTokenTtlMs: 30 * 24 * 60 * 60 * 1000,
  registrationBucket: { capacity: 20, refillPerSecond: 20 / 3600 },
  documentTimeoutMs: 5000,
  documentMaxBytes: 64 * 1024,
  documentMinCacheMs: 5 * 60 * 1000,
  documentMaxCacheMs: 24 * 60 * 60 * 1000,
});
