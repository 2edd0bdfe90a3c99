import type { H3Event } from "h3";
import { checkCsrf, readSession } from "../accounts/session.ts";
import { requireSignedIn } from "../app/guard.ts";
import { hashSecret } from "../auth/secrets.ts";
import { newId } from "../kernel/ids.ts";
import type { Platform } from "../kernel/platform.ts";
import { isToolset, toolsets } from "../kernel/toolsets.ts";
import { bodyLimit, readUrlEncoded } from "../rest/body.ts";
import { REQUEST_PARAMS, redirectToClient, validateAuthorizeRequest } from "./authorize-request.ts";
import { consentOrganizations, renderConsent } from "./consent-page.ts";
import { errorPage } from "./http.ts";
import { oauthSettings } from "./settings.ts";
import { newToken, scopeOfAccess } from "./tokens.ts";

/** GET /oauth/authorize: validates the request, sends signed-out users to sign in, then shows consent. */
export async function authorizePage(platform: Platform, event: H3Event): Promise<Response> {
  const params = event.url.searchParams;
  const request = await validateAuthorizeRequest(platform, params, event.req.headers.get("accept") ?? "");
  if (request instanceof Response) return request;
  const signedIn = await requireSignedIn(platform, event);
  if (signedIn instanceof Response) return signedIn;
  const organizations = await platform.db.read((stores) => consentOrganizations(stores, signedIn.user.id));
  const response = renderConsent(signedIn, request, params, organizations);
  if (signedIn.refreshCookie) response.headers.append("set-cookie", signedIn.refreshCookie);
  return response;
}

/**
 * POST /oauth/authorize: the consent form (bounded by the form body limit; a larger one is refused with 413 before
 * it is buffered). Requires the session and its CSRF token; re-validates the whole
 * request; refuses a consent without toolsets; records the grant (with its toolsets) and a single-use code (stored hashed, ≤ 10 minutes); redirects with code,
 * state and iss.
 */
export async function authorizeDecision(platform: Platform, event: H3Event): Promise<Response> {
  const type = event.req.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return errorPage("Invalid request", "The consent form must be posted as a form.");
  }
  const form = await readUrlEncoded(event.req, bodyLimit(platform.config, "form"));
  const params = new URLSearchParams();
  for (const name of REQUEST_PARAMS) for (const value of form.getAll(name)) params.append(name, value);
  const signedIn = await readSession(platform, event.req);
  if (!signedIn) return errorPage("Signed out", "Your session ended; start connecting again.", 401);
  if (!checkCsrf(signedIn, form.get("csrf"))) {
    return errorPage(
      "Form expired",
      "This consent form is missing its security token or has expired; nothing was granted. Start again.",
      403,
    );
  }
  const request = await validateAuthorizeRequest(platform, params);
  if (request instanceof Response) return request;
  const back = (fields: Record<string, string>) =>
    redirectToClient(platform, request.redirectUri, { ...fields, state: request.state });
  if (form.get("decision") !== "allow") {
    return back({ error: "access_denied", error_description: "The user denied access." });
  }
  const access = form.get("access") === "read" ? "read" : "write";
  const organizations = await platform.db.read((stores) => consentOrganizations(stores, signedIn.user.id));
  const organization = organizations.find((o) => o.id === form.get("organization_id"));
  if (!organization) {
    return errorPage(
      "Choose an organization",
      "Pick one of your organizations to connect; nothing was granted.",
    );
  }
  let websiteIds: string[] | null = null;
  if (form.get("websites") === "some") {
    websiteIds = [...new Set(form.getAll("website_ids"))];
    const known = new Set(organization.websites.map((w) => w.id));
    if (websiteIds.length === 0 || !websiteIds.every((id) => known.has(id))) {
      return errorPage(
        "Choose websites",
        `Check at least one website of ${organization.name} you can reach, or choose all websites; nothing was granted.`,
      );
    }
  }
  const picked = [...new Set(form.getAll("toolsets"))];
  if (picked.length === 0 || !picked.every(isToolset)) {
    return errorPage(
      "Choose toolsets",
      `Check at least one toolset (${toolsets.join(", ")}) the client may use; nothing was granted.`,
    );
  }
  const now = Date.now();
  const code = newToken("swo_ac_");
  const grantId = newId();
  const scope = scopeOfAccess(access);
  await platform.db.transaction(async (stores) => {
    await stores.oauth.insertGrant({
      id: grantId,
      userId: signedIn.user.id,
      clientId: request.client.id,
      organizationId: organization.id,
      websiteIds,
      access,
      toolsets: toolsets.filter((set) => picked.includes(set)),
      scope,
      createdAt: now,
      updatedAt: now,
      lastUsedAt: null,
      revokedAt: null,
    });
    await stores.oauth.insertCode({
      id: hashSecret(code),
      grantId,
      clientId: request.client.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope,
      createdAt: now,
      expiresAt: now + Math.min(oauthSettings(platform).codeTtlMs, 10 * 60 * 1000),
      usedAt: null,
      familyId: null,
    });
  });
  return back({ code });
}
