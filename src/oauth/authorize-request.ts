import type { OAuthClientRecord } from "../db/stores/oauth.ts";
import type { Platform } from "../kernel/platform.ts";
import { ClientProblem, resolveClient } from "./clients.ts";
import { errorPage, oauthJson } from "./http.ts";
import { matchesRegisteredRedirect } from "./redirect-uris.ts";
import { issuerOf, resourceOf, SCOPES } from "./settings.ts";

/** A validated authorization request. */
export interface AuthorizeRequest {
  client: OAuthClientRecord;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  resource: string;
  /** Requested scopes we know (unknown ones are dropped); empty means "whatever the consent gives". */
  scope: string[];
}

/** The original request's parameters, carried through the consent form as hidden fields. */
export const REQUEST_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
  "scope",
] as const;

/** A redirect to the client's validated redirect URI with the given parameters plus `iss` (RFC 9207). */
export function redirectToClient(
  platform: Platform,
  redirectUri: string,
  params: Record<string, string | undefined>,
): Response {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set("iss", issuerOf(platform));
  return new Response(null, { status: 302, headers: { location: url.href, "cache-control": "no-store" } });
}

/**
 * Validates an authorization request. Until the client and its redirect URI are known good, a problem is an
 * error page (the user agent is never sent to an unvalidated URI), or `{error, error_description}` JSON for a
 * caller that asks for `application/json` and not HTML; after that, problems go back to the client as
 * `error` + `state` + `iss` on its redirect URI.
 */
export async function validateAuthorizeRequest(
  platform: Platform,
  params: URLSearchParams,
  accept = "",
): Promise<AuthorizeRequest | Response> {
  const json = accept.includes("application/json") && !accept.includes("text/html");
  const refuse = (error: string, title: string, message: string) =>
    json ? oauthJson({ error, error_description: message }, 400) : errorPage(title, message);
  for (const name of REQUEST_PARAMS) {
    if (params.getAll(name).length > 1) {
      return refuse("invalid_request", "Invalid request", `The parameter '${name}' is given more than once.`);
    }
  }
  const clientId = params.get("client_id") ?? "";
  if (!clientId) return refuse("invalid_request", "Invalid request", "The client_id parameter is missing.");
  let client: OAuthClientRecord;
  try {
    client = await resolveClient(platform, clientId);
  } catch (error) {
    if (error instanceof ClientProblem) return refuse("invalid_client", "Unknown application", error.message);
    throw error;
  }
  const redirectUri = params.get("redirect_uri") ?? "";
  if (!redirectUri)
    return refuse("invalid_request", "Invalid request", "The redirect_uri parameter is missing.");
  if (!matchesRegisteredRedirect(client.redirectUris, redirectUri)) {
    return refuse(
      "invalid_request",
      "Invalid redirect",
      `The redirect URI ${redirectUri} is not registered for ${client.name}; you were not sent there.`,
    );
  }
  const state = params.get("state") ?? undefined;
  const fail = (error: string, description: string) =>
    redirectToClient(platform, redirectUri, { error, error_description: description, state });
  if (params.get("response_type") !== "code") {
    return fail("unsupported_response_type", "response_type must be 'code'.");
  }
  const codeChallenge = params.get("code_challenge");
  if (!codeChallenge) return fail("invalid_request", "code_challenge is required (PKCE with S256).");
  if (params.get("code_challenge_method") !== "S256") {
    return fail("invalid_request", "code_challenge_method must be 'S256'; 'plain' is not supported.");
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
    return fail("invalid_request", "code_challenge must be the base64url SHA-256 of the code verifier.");
  }
  const resource = params.get("resource") ?? resourceOf(platform);
  if (resource !== resourceOf(platform)) {
    return fail("invalid_target", `resource must be ${resourceOf(platform)}.`);
  }
  const scope = (params.get("scope") ?? "")
    .split(" ")
    .filter((s): s is (typeof SCOPES)[number] => (SCOPES as readonly string[]).includes(s));
  return { client, redirectUri, ...(state !== undefined ? { state } : {}), codeChallenge, resource, scope };
}
