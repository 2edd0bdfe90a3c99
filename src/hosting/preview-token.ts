import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isIdShaped } from "../kernel/ids.ts";

/** Who asked for a preview link: an API key, a signed-in user, or an OAuth connection (its grant). */
export interface PreviewPrincipalRef {
  type: "api_key" | "user" | "oauth_token";
  id: string;
}

const TYPE_CODES = { api_key: "k", user: "u", oauth_token: "g" } as const;
const TYPES_BY_CODE: Record<string, PreviewPrincipalRef["type"]> = {
  k: "api_key",
  u: "user",
  g: "oauth_token",
};

/**
 * Preview tokens let a browser open an editor's draft preview, where it cannot send credentials: a small
 * HMAC-SHA256-signed string `<websiteId>.<k|u|g><principalId>.<issued>.<expires>.<signature>` (times in seconds,
 * base 36; the signature's first 128 bits, base64url), about 86 characters. A token proves nothing by itself
 * beyond "this principal asked for it": every use re-reads the principal (a revoked, expired or rotated key,
 * a revoked OAuth connection, a user who lost access end its tokens at once), which must still reach the website.
 */
export interface PreviewTokenClaims {
  websiteId: string;
  principal: PreviewPrincipalRef;
  /** Milliseconds since the epoch (stored at second precision). */
  issuedAt: number;
  expiresAt: number;
}

/** Longest a token may live; previews are opened right after the link is minted. */
export const MAX_PREVIEW_TOKEN_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_PREVIEW_TOKEN_TTL_MS = 10 * 60 * 1000;

const CONTEXT = "sitewright-preview-v1";

let processSecret: Buffer | undefined;

/**
 * The signing secret: the configured one (`PlatformConfig.previewSecret`, the same value on every node), or else
 * one random secret per process, the same for every caller (so an operation minting links and hosting checking
 * them agree).
 */
export function previewSecret(configured: string | undefined): Buffer {
  if (configured) {
    if (configured.length < 32) throw new Error("The preview secret must be at least 32 characters.");
    return Buffer.from(configured, "utf8");
  }
  processSecret ??= randomBytes(32);
  return processSecret;
}

const sign = (secret: Buffer, payload: string) =>
  createHmac("sha256", secret).update(`${CONTEXT}.${payload}`).digest().subarray(0, 16);

/** Mints a token for `principal` on `websiteId`, valid for `ttlMs` (capped at an hour). */
export function mintPreviewToken(
  secret: Buffer,
  claims: { websiteId: string; principal: PreviewPrincipalRef },
  options: { now?: number; ttlMs?: number } = {},
): string {
  const now = options.now ?? Date.now();
  const ttl = Math.min(
    Math.max(options.ttlMs ?? DEFAULT_PREVIEW_TOKEN_TTL_MS, 1000),
    MAX_PREVIEW_TOKEN_TTL_MS,
  );
  const issued = Math.floor(now / 1000);
  const expires = Math.floor((now + ttl) / 1000);
  const who = `${TYPE_CODES[claims.principal.type]}${claims.principal.id}`;
  const payload = `${claims.websiteId}.${who}.${issued.toString(36)}.${expires.toString(36)}`;
  return `${payload}.${sign(secret, payload).toString("base64url")}`;
}

/** The claims of a well-signed, unexpired token; undefined for anything else. */
export function verifyPreviewToken(
  secret: Buffer,
  token: string,
  now = Date.now(),
): PreviewTokenClaims | undefined {
  if (token.length > 128) return undefined;
  const parts = token.split(".");
  if (parts.length !== 5) return undefined;
  const [websiteId, who, issued36, expires36, signature] = parts as [string, string, string, string, string];
  const type = TYPES_BY_CODE[who.charAt(0)];
  const principalId = who.slice(1);
  if (!isIdShaped(websiteId) || !type || !isIdShaped(principalId)) return undefined;
  if (!/^[0-9a-z]{1,10}$/.test(issued36) || !/^[0-9a-z]{1,10}$/.test(expires36)) return undefined;
  const given = Buffer.from(signature, "base64url");
  const expected = sign(secret, parts.slice(0, 4).join("."));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const issuedAt = Number.parseInt(issued36, 36) * 1000;
  const expiresAt = Number.parseInt(expires36, 36) * 1000;
  if (expiresAt <= now || expiresAt - issuedAt > MAX_PREVIEW_TOKEN_TTL_MS) return undefined;
  return { websiteId, principal: { type, id: principalId }, issuedAt, expiresAt };
}
