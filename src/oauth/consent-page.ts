import type { SignedIn } from "../accounts/session.ts";
import { roleLabel } from "../app/ui/components.ts";
import { html, raw } from "../app/ui/html.ts";
import { csrfField, renderPage } from "../app/ui/layout.ts";
import { loadUserPrincipal } from "../auth/users.ts";
import type { Stores } from "../db/stores/index.ts";
import { defaultToolsets, toolsetCatalog, toolsets } from "../kernel/toolsets.ts";
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

/**
 * Keeps the website checkboxes honest with JavaScript: only the chosen organization's list is shown, and only
 * under "Only the websites I check"; hidden lists are disabled, so they are not submitted. Without JavaScript
 * the stylesheet hides the lists under "All websites" and the server ignores website_ids unless "some" is chosen.
 */
const consentScript = `(function(){var f=document.getElementById("consent");if(!f)return;function sync(){
var org=f.querySelector("input[name=organization_id]:checked"),some=f.querySelector("input[name=websites][value=some]:checked");
f.querySelectorAll("fieldset[data-organization]").forEach(function(s){var on=!!some&&!!org&&s.getAttribute("data-organization")===org.value;
s.hidden=!on;s.querySelectorAll("input").forEach(function(i){i.disabled=!on})})}
f.addEventListener("change",sync);sync()})();`;

/** The consent page: who asks, where the answer goes, and the organization, websites, access and toolsets to grant. */
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
      ? html`Verified by its metadata document at <code>${new URL(client.id).host}</code>`
      : html`Registered itself; its name is not verified`;
  const readOnlyAsked = request.scope.length > 0 && !request.scope.includes("mcp:write");
  const hidden = [...params.entries()]
    .filter(([name]) => name !== "csrf")
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const orgChoices = organizations.map(
    (org, i) =>
      html`<label class="choice"><input type="radio" name="organization_id" value="${org.id}"${i === 0 ? html` checked` : ""}><span>${org.name}<small>${roleLabel(org.role)}</small></span></label>`,
  );
  const toolsetChoices = toolsets.map(
    (set) =>
      html`<label class="choice"><input type="checkbox" name="toolsets" value="${set}"${defaultToolsets.includes(set) ? html` checked` : ""}><span>${set}<small>${toolsetCatalog[set]}</small></span></label>`,
  );
  const websiteChoices = organizations.map(
    (org) =>
      html`<fieldset class="website-list" data-organization="${org.id}"><legend>Websites of ${org.name}</legend>${
        org.websites.length
          ? html`<div class="choices">${org.websites.map(
              (w) =>
                html`<label class="choice"><input type="checkbox" name="website_ids" value="${w.id}"><span>${w.name}</span></label>`,
            )}</div>`
          : html`<p class="muted small">No websites yet.</p>`
      }</fieldset>`,
  );
  const body = html`<div class="consent">
<p class="eyebrow">Authorization request</p>
<h1>${client.name} wants access to your Sitewright account</h1>
<p class="muted">You are signed in as <strong>${signedIn.user.email}</strong>.</p>
<dl class="kv consent-facts"><dt>Returns to</dt><dd><code>${host}</code></dd><dt>Identity</dt><dd>${identity}</dd></dl>
${
  loopbackOnly
    ? html`<div class="flash warn" role="alert"><div><strong>This application runs on a computer, not a website.</strong><p>Continue only if you started it yourself just now.</p></div></div>`
    : ""
}
${
  organizations.length === 0
    ? html`<div class="flash warn" role="status"><div><strong>You are not a member of any organization, so there is nothing to connect.</strong></div></div>`
    : ""
}
<form method="post" action="/oauth/authorize" id="consent" class="consent-form">
${csrfField(signedIn.csrfToken)}
${hidden}
<fieldset><legend>Organization</legend><div class="choices">${orgChoices}</div></fieldset>
<fieldset><legend>Websites</legend><div class="choices">
<label class="choice"><input type="radio" name="websites" value="all" checked><span>All websites<small>Every website of the organization, including new ones.</small></span></label>
<label class="choice"><input type="radio" name="websites" value="some"><span>Only the websites I check</span></label>
</div>${websiteChoices}
</fieldset>
<fieldset><legend>Access</legend><div class="choices">
<label class="choice"><input type="radio" name="access" value="read"${readOnlyAsked ? html` checked` : ""}><span>Read only</span></label>
<label class="choice"><input type="radio" name="access" value="write"${readOnlyAsked ? "" : html` checked`}><span>Read and write<small>What your role allows.</small></span></label>
</div></fieldset>
<fieldset><legend>Toolsets</legend><p class="muted small">The client sees and calls only the tools of the toolsets you check.</p><div class="choices">${toolsetChoices}</div></fieldset>
<p class="muted small">The connection never grants more than you hold yourself. Revoke it any time under Connected clients.</p>
<div class="consent-actions">
<button type="submit" name="decision" value="allow" class="primary"${organizations.length === 0 ? html` disabled` : ""}>Allow access</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>
</div>
<script>${raw(consentScript)}</script>`;
  return renderPage({
    title: `Authorize ${client.name}`,
    body,
    headers: { "content-security-policy": consentCsp(request.redirectUri) },
  });
}
