import type { Platform } from "../kernel/platform.ts";
import type { OAuthConfig } from "./config.ts";

/** Scopes of the MCP resource: read-only tools, and everything the consented role allows. */
export const SCOPES = ["mcp:read", "mcp:write"] as const;
export const SCOPE_ALL = SCOPES.join(" ");

/** Access tokens and refresh tokens carry a prefix, so an API key is never mistaken for one. */
export const ACCESS_TOKEN_PREFIX = "swo_at_";
export const REFRESH_TOKEN_PREFIX = "swo_rt_";

/** The authorization server's settings: the platform's `oauth` configuration and its loopback rule. */
export interface OAuthSettings extends OAuthConfig {
  /** Accept Client ID Metadata Documents on loopback (http or https): `PlatformConfig.allowLoopbackClientIds`. */
  allowLoopbackClientIds: boolean;
}

/** The settings of one platform, read from its configuration at each use (tests change the configuration). */
export function oauthSettings(platform: Platform): OAuthSettings {
  return { ...platform.config.oauth, allowLoopbackClientIds: platform.config.allowLoopbackClientIds };
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
