import type { ApiKeyRecord } from "../db/stores/api-keys.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Grant, Principal } from "../kernel/principal.ts";
import type { Role } from "../kernel/roles.ts";
import { ACCESS_TOKEN_PREFIX, resourceOf } from "../oauth/settings.ts";
import { checkAccessToken, isAccessTokenShaped } from "../oauth/tokens.ts";
import { hashSecret, isSecretShaped } from "./secrets.ts";

/** Name of the dashboard's session cookie; the API host refuses any request that carries it. */
export const SESSION_COOKIE = "sitewright_session";

/** The principal an API key acts as: one grant, its own rate-limit buckets. */
export function principalOfKey(key: ApiKeyRecord): Principal {
  let principal = principals.get(key);
  if (!principal) {
    const grant: Grant = {
      organizationId: key.organizationId,
      role: key.role as Role,
      ...(key.accessKind === "websites" ? { websiteIds: Object.freeze([...key.websiteIds]) } : {}),
    };
    principal = Object.freeze({
      type: "api_key",
      id: key.id,
      label: key.name,
      grants: Object.freeze([Object.freeze(grant)]),
      bucketKey: `key:${key.id}`,
    });
    principals.set(key, principal);
  }
  return principal;
}

/**
 * One principal per key record: a record reused while the database is unchanged (unchanged-cache.ts) gives the same,
 * frozen, principal; a record read again (a change anywhere, PostgreSQL) gives a new one.
 */
const principals = new WeakMap<ApiKeyRecord, Principal>();

const unauthorized = (message: string) =>
  new ApiError("unauthorized", message, {
    suggestion:
      "Send 'Authorization: Bearer <API key>' with an active key; create one in the dashboard or with `sitewright keys create`.",
  });

/** A refused OAuth access token on the MCP endpoint: the client's connection is what needs renewing, not a key. */
const unauthorizedToken = (message: string) =>
  new ApiError("unauthorized", message, {
    suggestion:
      "Reconnect the client: it refreshes the token, or opens the browser for you to sign in again and approve the connection (in Claude Code: /mcp → sitewright → Authenticate).",
  });

/**
 * Authenticates an API request. Failures are throttled per IP: while the address's bucket is empty every request
 * from it is refused 429 before any key is looked up; a request whose credential fails pays one token with an
 * atomic take, and is answered 401 only if it got one (429 otherwise), so of N parallel bad keys at most the tokens
 * left are answered 401. A credential that authenticates touches the bucket only to read it: valid keys in
 * parallel are never refused for each other. Every lookup asks the database (a key is looked up by its SHA-256, a
 * cheap indexed read; on SQLite the record is reused only while the database is unchanged, see unchanged-cache.ts),
 * so a rotation or revocation applies on the next request on every node.
 */
export async function authenticate(
  platform: Platform,
  request: Request,
  ip: string,
  options: AuthenticateOptions = {},
): Promise<Principal> {
  const limiter = platform.db.rateLimiter;
  const bucketKey = `auth-failures:${ip}`;
  const spec = platform.config.authFailureBucket;
  const gate = await limiter.take(bucketKey, spec, 0);
  if (!gate.allowed) throw throttled(platform, gate.retryAfterSeconds);
  try {
    return await principalOf(platform, request, options);
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind !== "unauthorized") throw error;
    const charged = await limiter.take(bucketKey, spec, 1);
    throw charged.allowed ? error : throttled(platform, charged.retryAfterSeconds);
  }
}

function throttled(platform: Platform, retryAfterSeconds: number): ApiError {
  platform.metrics.rateLimited("auth_failures");
  return new ApiError("rate_limited", "Too many failed authentication attempts from this address.", {
    retryAfterSeconds,
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/** Where a credential is presented: only the MCP endpoint accepts OAuth access tokens (for its resource). */
export interface AuthenticateOptions {
  /** The resource OAuth access tokens must be bound to; without it they are refused (the REST API). */
  oauthResource?: string;
}

async function principalOf(
  platform: Platform,
  request: Request,
  options: AuthenticateOptions,
): Promise<Principal> {
  const cookie = request.headers.get("cookie");
  if (cookie && new RegExp(`(^|;\\s*)${SESSION_COOKIE}=`).test(cookie)) {
    throw unauthorized(
      "Browser session cookies are not accepted on the API host; authenticate with an API key.",
    );
  }
  const header = request.headers.get("authorization");
  if (!header) throw unauthorized("Missing Authorization header.");
  const match = /^Bearer[ ]+(\S+)$/i.exec(header.trim());
  if (!match) throw unauthorized("Malformed Authorization header; expected 'Bearer <API key>'.");
  const secret = match[1]!;
  if (secret.startsWith(ACCESS_TOKEN_PREFIX)) return principalOfAccessToken(platform, secret, options);
  if (!isSecretShaped(secret)) throw unauthorized("Malformed API key.");
  const hash = hashSecret(secret);
  const key =
    platform.db.peek?.((stores) => stores.apiKeys.peekBySecretHash(hash)) ??
    (await platform.db.read((stores) => stores.apiKeys.findBySecretHash(hash)));
  if (!key) throw unauthorized("Unknown API key.");
  if (key.revokedAt !== null) throw unauthorized("This API key has been revoked.");
  if (key.expiresAt !== null && key.expiresAt <= Date.now()) throw unauthorized("This API key has expired.");
  return principalOfKey(key);
}

/** Grants' last use is recorded at most once a minute. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/** An OAuth access token: valid only on the MCP endpoint, for its resource, as the user's current grants. */
async function principalOfAccessToken(
  platform: Platform,
  token: string,
  options: AuthenticateOptions,
): Promise<Principal> {
  if (!options.oauthResource) {
    throw unauthorized(
      `OAuth access tokens are accepted only by the MCP endpoint (${resourceOf(platform)}); the REST API needs an API key.`,
    );
  }
  if (!isAccessTokenShaped(token)) throw unauthorizedToken("Malformed access token.");
  const now = Date.now();
  const resource = options.oauthResource;
  const check = await platform.db.read((stores) => checkAccessToken(stores, token, resource, now));
  if (!check.ok) throw unauthorizedToken(check.reason);
  if (check.grant.lastUsedAt === null || check.grant.lastUsedAt < now - TOUCH_INTERVAL_MS) {
    await platform.db.transaction((stores) =>
      stores.oauth.touchGrant(check.grant.id, now, TOUCH_INTERVAL_MS),
    );
  }
  return check.principal;
}
