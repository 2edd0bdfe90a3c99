import { createHash } from "node:crypto";
import type { H3Event } from "h3";
import { hashSecret } from "../auth/secrets.ts";
import type { Stores } from "../db/stores/index.ts";
import type { OAuthClientRecord } from "../db/stores/oauth.ts";
import { newId } from "../kernel/ids.ts";
import type { Platform } from "../kernel/platform.ts";
import { reportFailure } from "../kernel/request-scope.ts";
import { ClientProblem, isMetadataDocumentId, resolveClient } from "./clients.ts";
import { failureResponse, OAuthProblem, oauthJson, problemResponse, readForm } from "./http.ts";
import { oauthSettings, resourceOf } from "./settings.ts";
import { issueTokens } from "./tokens.ts";

const grantError = (description: string) => new OAuthProblem("invalid_grant", description);
type Outcome = { body: Record<string, unknown> } | { problem: OAuthProblem };

/** RFC 7636: the S256 challenge of a verifier. */
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/**
 * POST /oauth/token: `authorization_code` (PKCE S256) and `refresh_token` (rotating). Always JSON, errors
 * included, never cached. Failures that must leave a trace (a consumed code, a revoked family) commit it.
 */
export async function tokenEndpoint(platform: Platform, event: H3Event): Promise<Response> {
  try {
    const form = await readForm(platform, event.req);
    const clientId = form.get("client_id");
    if (!clientId) throw new OAuthProblem("invalid_client", "client_id is required (public clients).", 401);
    const grantType = form.get("grant_type");
    const resource = form.get("resource");
    if (resource !== null && resource !== resourceOf(platform)) {
      throw new OAuthProblem("invalid_target", `resource must be ${resourceOf(platform)}.`);
    }
    const client = await tokenClient(platform, clientId);
    let outcome: Outcome;
    if (grantType === "authorization_code") {
      outcome = await platform.db.transaction((stores) => redeemCode(platform, stores, client, form));
    } else if (grantType === "refresh_token") {
      outcome = await platform.db.transaction((stores) => rotateRefresh(platform, stores, client, form));
    } else {
      throw new OAuthProblem(
        "unsupported_grant_type",
        "grant_type must be authorization_code or refresh_token.",
      );
    }
    if ("problem" in outcome) return problemResponse(outcome.problem);
    return oauthJson(outcome.body);
  } catch (error) {
    const answer = failureResponse(error);
    if (answer) return answer;
    reportFailure(platform.log, "oauth token endpoint", error);
    return oauthJson({ error: "server_error", error_description: "The token could not be issued." }, 500);
  }
}

/**
 * The client of a token request: a registered one, or a metadata document (fetched again once its cached copy
 * expired); why not as `invalid_client`, with the same words as the authorization page.
 */
async function tokenClient(platform: Platform, clientId: string): Promise<OAuthClientRecord> {
  if (isMetadataDocumentId(clientId)) {
    try {
      return await resolveClient(platform, clientId);
    } catch (error) {
      if (error instanceof ClientProblem) throw new OAuthProblem("invalid_client", error.message, 401);
      throw error;
    }
  }
  const client = await platform.db.read((stores) => stores.oauth.getClient(clientId));
  if (client?.kind !== "registered")
    throw new OAuthProblem("invalid_client", `Unknown client '${clientId}'.`, 401);
  return client;
}

const allowsRefresh = (client: OAuthClientRecord) => {
  const types = client.metadata.grant_types;
  return !Array.isArray(types) || types.includes("refresh_token");
};

async function redeemCode(
  platform: Platform,
  stores: Stores,
  client: OAuthClientRecord,
  form: URLSearchParams,
): Promise<Outcome> {
  const code = form.get("code");
  if (!code) return { problem: new OAuthProblem("invalid_request", "code is required.") };
  const now = Date.now();
  const record = await stores.oauth.getCode(hashSecret(code));
  if (!record || record.clientId !== client.id) return { problem: grantError("Unknown authorization code.") };
  if (!(await stores.oauth.consumeCode(record.id, now))) {
    if (record.familyId) await stores.oauth.revokeFamily(record.familyId, now);
    return {
      problem: grantError("This authorization code was already used; the tokens it issued are revoked."),
    };
  }
  // From here on the code is spent, whatever happens.
  if (record.expiresAt <= now) return { problem: grantError("This authorization code has expired.") };
  if (form.get("redirect_uri") !== record.redirectUri) {
    return { problem: grantError("redirect_uri does not match the authorization request.") };
  }
  if (!record.codeChallenge)
    return { problem: grantError("The authorization request carried no code_challenge.") };
  const verifier = form.get("code_verifier");
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) {
    return { problem: grantError("code_verifier is missing or malformed; the code is now spent.") };
  }
  if (s256(verifier) !== record.codeChallenge) {
    return { problem: grantError("code_verifier does not match the code_challenge; the code is now spent.") };
  }
  const grant = await stores.oauth.getGrant(record.grantId);
  if (!grant || grant.revokedAt !== null) return { problem: grantError("This connection has been revoked.") };
  const familyId = newId();
  await stores.oauth.setCodeFamily(record.id, familyId);
  const body = await issueTokens(stores, {
    grant,
    clientId: client.id,
    resource: record.resource,
    familyId,
    withRefresh: allowsRefresh(client),
    now,
    settings: oauthSettings(platform),
  });
  return { body };
}

async function rotateRefresh(
  platform: Platform,
  stores: Stores,
  client: OAuthClientRecord,
  form: URLSearchParams,
): Promise<Outcome> {
  const token = form.get("refresh_token");
  if (!token) return { problem: new OAuthProblem("invalid_request", "refresh_token is required.") };
  const now = Date.now();
  const record = await stores.oauth.getToken(hashSecret(token));
  if (record?.kind !== "refresh" || record.clientId !== client.id) {
    return { problem: grantError("Unknown refresh token.") };
  }
  if (record.revokedAt !== null) return { problem: grantError("This refresh token has been revoked.") };
  if (!(await stores.oauth.consumeToken(record.id, now))) {
    await stores.oauth.revokeFamily(record.familyId, now);
    return {
      problem: grantError("This refresh token was already used; every token of its family is revoked."),
    };
  }
  if (record.expiresAt <= now) return { problem: grantError("This refresh token has expired.") };
  const grant = await stores.oauth.getGrant(record.grantId);
  if (!grant || grant.revokedAt !== null) return { problem: grantError("This connection has been revoked.") };
  const requested = form.get("scope");
  if (requested && !requested.split(" ").every((s) => grant.scope.split(" ").includes(s))) {
    return {
      problem: new OAuthProblem("invalid_scope", `A refresh cannot widen the scope beyond '${grant.scope}'.`),
    };
  }
  const body = await issueTokens(stores, {
    grant,
    clientId: client.id,
    resource: record.resource,
    familyId: record.familyId,
    withRefresh: true,
    now,
    settings: oauthSettings(platform),
  });
  return { body };
}

/** POST /oauth/revoke (RFC 7009): revokes an access token, or a refresh token and its whole family. */
export async function revokeEndpoint(platform: Platform, event: H3Event): Promise<Response> {
  try {
    const form = await readForm(platform, event.req);
    const token = form.get("token");
    if (!token) throw new OAuthProblem("invalid_request", "token is required.");
    const clientId = form.get("client_id");
    const now = Date.now();
    await platform.db.transaction(async (stores) => {
      const record = await stores.oauth.getToken(hashSecret(token));
      if (!record || (clientId !== null && record.clientId !== clientId)) return;
      if (record.kind === "refresh") await stores.oauth.revokeFamily(record.familyId, now);
      else await stores.oauth.revokeToken(record.id, now);
    });
    return oauthJson({});
  } catch (error) {
    const answer = failureResponse(error);
    if (answer) return answer;
    throw error;
  }
}
