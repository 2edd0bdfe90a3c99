import { randomBytes } from "node:crypto";
import { hashSecret } from "../auth/secrets.ts";
import { loadUserPrincipal } from "../auth/users.ts";
import type { Stores } from "../db/stores/index.ts";
import type { OAuthGrantRecord } from "../db/stores/oauth.ts";
import type { Grant, Principal } from "../kernel/principal.ts";
import { isToolset } from "../kernel/toolsets.ts";
import { ACCESS_TOKEN_PREFIX, type OAuthSettings, REFRESH_TOKEN_PREFIX } from "./settings.ts";

/** A new opaque token with its prefix: 32 random bytes, base64url. */
export const newToken = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;

export const isAccessTokenShaped = (value: string) =>
  value.startsWith(ACCESS_TOKEN_PREFIX) &&
  /^[A-Za-z0-9_-]{43}$/.test(value.slice(ACCESS_TOKEN_PREFIX.length));

/** The scope string of a consent's access. */
export const scopeOfAccess = (access: "read" | "write") =>
  access === "read" ? "mcp:read" : "mcp:read mcp:write";

export interface IssueInput {
  grant: OAuthGrantRecord;
  clientId: string;
  resource: string;
  familyId: string;
  withRefresh: boolean;
  now: number;
  settings: OAuthSettings;
}

/** Issues an access token (and a refresh token of the same family); only their hashes are stored. */
export async function issueTokens(stores: Stores, input: IssueInput) {
  const { grant, now, settings } = input;
  const common = {
    grantId: grant.id,
    familyId: input.familyId,
    clientId: input.clientId,
    resource: input.resource,
    scope: grant.scope,
    createdAt: now,
    usedAt: null,
    revokedAt: null,
  };
  const accessToken = newToken(ACCESS_TOKEN_PREFIX);
  await stores.oauth.insertToken({
    ...common,
    id: hashSecret(accessToken),
    kind: "access",
    expiresAt: now + settings.accessTokenTtlMs,
  });
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: Math.floor(settings.accessTokenTtlMs / 1000),
    scope: grant.scope,
  };
  if (input.withRefresh) {
    const refreshToken = newToken(REFRESH_TOKEN_PREFIX);
    await stores.oauth.insertToken({
      ...common,
      id: hashSecret(refreshToken),
      kind: "refresh",
      expiresAt: now + settings.refreshTokenTtlMs,
    });
    body.refresh_token = refreshToken;
  }
  return body;
}

/**
 * The user's grants as they are now, narrowed to a consent: only the consented organization, only the
 * consented websites (intersected with what the user reaches), read-only when so consented, and limited to the
 * consented toolsets (none recorded = no limit). A token never grants more than its user holds now.
 */
export function narrowToConsent(user: Principal, consent: OAuthGrantRecord): Principal {
  const grants: Grant[] = [];
  for (const grant of user.grants) {
    if (grant.organizationId !== consent.organizationId) continue;
    if (consent.websiteIds === null) {
      grants.push(grant);
      continue;
    }
    const websiteIds = grant.websiteIds
      ? grant.websiteIds.filter((id) => consent.websiteIds!.includes(id))
      : consent.websiteIds;
    grants.push({ ...grant, websiteIds });
  }
  return {
    type: "oauth_token",
    id: consent.id,
    userId: consent.userId,
    label: `${user.label} (connected client)`,
    grants,
    bucketKey: user.bucketKey,
    ...(consent.access === "read" ? { readOnly: true } : {}),
    ...(consent.toolsets ? { toolsets: consent.toolsets.filter(isToolset) } : {}),
  };
}

export type AccessTokenCheck =
  | { ok: true; principal: Principal; grant: OAuthGrantRecord }
  | { ok: false; reason: string };

/** Resolves an access token for `resource` to its principal, or why it is not valid. */
export async function checkAccessToken(
  stores: Stores,
  token: string,
  resource: string,
  now: number,
): Promise<AccessTokenCheck> {
  const record = await stores.oauth.getToken(hashSecret(token));
  if (record?.kind !== "access") return { ok: false, reason: "Unknown access token." };
  if (record.revokedAt !== null) return { ok: false, reason: "This access token has been revoked." };
  if (record.expiresAt <= now) return { ok: false, reason: "This access token has expired." };
  if (record.resource !== resource) {
    return { ok: false, reason: `This access token was issued for another resource (${record.resource}).` };
  }
  const grant = await stores.oauth.getGrant(record.grantId);
  if (!grant || grant.revokedAt !== null) return { ok: false, reason: "This connection has been revoked." };
  const user = await loadUserPrincipal(stores, grant.userId);
  if (!user) return { ok: false, reason: "The user of this token no longer exists." };
  return { ok: true, principal: narrowToConsent(user, grant), grant };
}
