import { randomBytes } from "node:crypto";
import type { H3Event } from "h3";
import type { Platform } from "../kernel/platform.ts";
import { bodyLimit, readBodyText } from "../rest/body.ts";
import { clientIp } from "../rest/request-meta.ts";
import { ClientProblem, checkRedirectUris, clientName } from "./clients.ts";
import { failureResponse, OAuthProblem, oauthJson } from "./http.ts";
import { oauthSettings } from "./settings.ts";

const GRANT_TYPES = ["authorization_code", "refresh_token"];
const TEXT_FIELDS = [
  "client_name",
  "client_uri",
  "logo_uri",
  "tos_uri",
  "policy_uri",
  "software_id",
  "software_version",
  "scope",
] as const;

const invalid = (message: string) => new OAuthProblem("invalid_client_metadata", message);

/**
 * Dynamic Client Registration (RFC 7591): public clients only (`token_endpoint_auth_method: none`),
 * rate-limited per client IP. The response carries only fields that have a value, never `null`.
 */
export async function registerClient(platform: Platform, event: H3Event): Promise<Response> {
  try {
    const settings = oauthSettings(platform);
    const gate = await platform.db.rateLimiter.take(
      `oauth-register:${clientIp(event, platform)}`,
      settings.registrationBucket,
      1,
    );
    if (!gate.allowed) {
      throw new OAuthProblem(
        "temporarily_unavailable",
        "Too many client registrations from this address; try later.",
        429,
        {
          "retry-after": String(gate.retryAfterSeconds),
        },
      );
    }
    const text = await readBodyText(event.req, bodyLimit(platform.config, "form"));
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalid("The registration request must be a JSON object.");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      throw invalid("The registration request must be a JSON object.");
    }
    let redirectUris: string[];
    try {
      redirectUris = checkRedirectUris(body.redirect_uris);
    } catch (error) {
      if (error instanceof ClientProblem) throw new OAuthProblem("invalid_redirect_uri", error.message);
      throw error;
    }
    const grantTypes = body.grant_types ?? GRANT_TYPES;
    if (!Array.isArray(grantTypes) || !grantTypes.every((g) => GRANT_TYPES.includes(g as string))) {
      throw invalid(`grant_types may contain only ${GRANT_TYPES.join(" and ")}.`);
    }
    const responseTypes = body.response_types ?? ["code"];
    if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== "code")) {
      throw invalid("response_types may contain only 'code'.");
    }
    const metadata: Record<string, unknown> = {
      redirect_uris: redirectUris,
      grant_types: grantTypes.length ? grantTypes : GRANT_TYPES,
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
    for (const field of TEXT_FIELDS) {
      const value = body[field];
      if (typeof value === "string" && value.length > 0 && value.length <= 2000) metadata[field] = value;
    }
    if (Array.isArray(body.contacts) && body.contacts.every((c) => typeof c === "string")) {
      metadata.contacts = body.contacts;
    }
    const now = Date.now();
    const clientId = `swc_${randomBytes(16).toString("base64url")}`;
    const host = new URL(redirectUris[0]!).host || redirectUris[0]!;
    await platform.db.transaction((stores) =>
      stores.oauth.saveClient({
        id: clientId,
        kind: "registered",
        name: clientName(metadata.client_name, host),
        redirectUris,
        metadata,
        createdAt: now,
        updatedAt: now,
        fetchedAt: null,
        cacheExpiresAt: null,
      }),
    );
    return oauthJson({ client_id: clientId, client_id_issued_at: Math.floor(now / 1000), ...metadata }, 201);
  } catch (error) {
    const answer = failureResponse(error);
    if (answer) return answer;
    throw error;
  }
}
