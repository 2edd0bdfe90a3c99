import type { SignedIn } from "../accounts/session.ts";
import { html } from "../app/ui/html.ts";
import { csrfField, renderPage } from "../app/ui/layout.ts";
import { loadUserPrincipal } from "../auth/users.ts";
import type { Stores } from "../db/stores/index.ts";
import type { AuthorizeRequest } from "./authorize-request.ts";
import { formActionSourceOf, isLoopbackRedirect, redirectHostOf } from "./redirect-uris.ts";

/** An organization the user may connect a client to, with the websites the user reaches in it. */
export interface ConsentOrganization {
  id: string;
  name: string;
  role: string;
  websites: { id: string; name: string }[];
}

/** The organizations (and their websites) the user holds a grant in now. */
export async function consentOrganizations(stores: Stores, userId: string): Promise<ConsentOrganization[]> {
  const principal = await loadUserPrincipal(stores, userId);
  if (!principal) return [];
  const orgs = await stores.organizations.listByIds(principal.grants.map((g) => g.organizationId));
  const result: ConsentOrganization[] = [];
  for (const grant of principal.grants) {
    const org = orgs.find((o) => o.id === grant.organizationId);
    if (!org) continue;
    const reach = grant.websiteIds
      ? { organizationIds: [], websiteIds: grant.websiteIds }
      : { organizationIds: [org.id], websiteIds: [] };
    const websites = grant.websiteIds?.length === 0 ? [] : await stores.websites.list(reach, { limit: 500 });
    result.push({
      id: org.id,
      name: org.name,
      role: grant.role,
      websites: websites.map((w) => ({ id: w.id, name: w.name })),
    });
  }
  return result;
}

/** CSP of the consent page: its form posts here, and the answer redirects to the client's redirect URI. */
function consentCsp(redirectUri: string): string {
  return `default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self' ${formActionSourceOf(redirectUri)}`;
}

/** The consent page: who asks, where the answer goes, and the organization, websites and access to grant. */
export function renderConsent(
  signedIn: SignedIn,
  request: AuthorizeRequest,
  params: URLSearchParams,
  organizations: ConsentOrganization[],
): Response {
  const { client } = request;
  const host = redirectHostOf(request.redirectUri);
  const loopbackOnly = client.redirectUris.every(isLoopbackRedirect);
  const identity =
    client.kind === "metadata_document"
      ? html`Identified by its metadata document at <code>${new URL(client.id).host}</code>.`
      : html`This application registered itself; its name is not verified.`;
  const readOnlyAsked = request.scope.length > 0 && !request.scope.includes("mcp:write");
  const hidden = [...params.entries()]
    .filter(([name]) => name !== "csrf")
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const orgChoices = organizations.map(
    (org, i) =>
      html`<label class="choice"><input type="radio" name="organization_id" value="${org.id}"${i === 0 ? html` checked` : ""}> ${org.name} <small>(${org.role})</small></label>`,
  );
  const websiteChoices = organizations.map(
    (org) =>
      html`<fieldset class="websites" data-organization="${org.id}"><legend>${org.name}</legend><div class="choices">${
        org.websites.length
          ? org.websites.map(
              (w) =>
                html`<label class="choice"><input type="checkbox" name="website_ids" value="${w.id}"> ${w.name}</label>`,
            )
          : html`<p class="muted">No websites yet.</p>`
      }</div></fieldset>`,
  );
  const body = html`<section class="card consent" style="max-width:40rem;margin:0 auto"><div class="card-body">
<h1>Connect ${client.name} to Sitewright</h1>
<p><strong>${client.name}</strong> wants to use Sitewright as <strong>${signedIn.user.email}</strong>.</p>
<p>After you decide, you return to <code>${host}</code>. ${identity}</p>
${
  loopbackOnly
    ? html`<div class="flash warn" role="alert"><div><strong>This application runs on a computer: it returns to ${host}.</strong><p>Continue only if you just started it yourself.</p></div></div>`
    : ""
}
${
  organizations.length === 0
    ? html`<div class="flash warn" role="status"><div><strong>You are not a member of any organization, so there is nothing to connect.</strong></div></div>`
    : ""
}
<form method="post" action="/oauth/authorize">
${csrfField(signedIn.csrfToken)}
${hidden}
<fieldset><legend>Organization</legend><div class="choices">${orgChoices}</div></fieldset>
<fieldset><legend>Websites</legend><div class="choices">
<label class="choice"><input type="radio" name="websites" value="all" checked> All websites of the organization, including new ones</label>
<label class="choice"><input type="radio" name="websites" value="some"> Only the websites checked below</label>
</div>${websiteChoices}
</fieldset>
<fieldset><legend>Access</legend><div class="choices">
<label class="choice"><input type="radio" name="access" value="read"${readOnlyAsked ? html` checked` : ""}> Read only</label>
<label class="choice"><input type="radio" name="access" value="write"${readOnlyAsked ? "" : html` checked`}> Read and write (what your role allows)</label>
</div></fieldset>
<p class="muted">The connection never grants more than you hold yourself; you can revoke it under Connected clients.</p>
<div class="actions">
<button type="submit" name="decision" value="allow" class="button primary"${organizations.length === 0 ? html` disabled` : ""}>Allow</button>
<button type="submit" name="decision" value="deny" class="button">Deny</button>
</div>
</form>
</div></section>`;
  return renderPage({
    title: `Connect ${client.name}`,
    body,
    user: { name: signedIn.user.name, email: signedIn.user.email },
    csrfToken: signedIn.csrfToken,
    headers: { "content-security-policy": consentCsp(request.redirectUri) },
  });
}
