import type { OperationId } from "../../../tools/index.ts";
import { html, raw, type SafeHtml } from "./html.ts";
import { icons } from "./icons.ts";
import { stylesheet } from "./styles.ts";

/** An organization in the switcher, with the user's role there. */
export interface ChromeOrganization {
  id: string;
  name: string;
  role?: string;
}

/** What the page chrome shows about the visitor (absent on signed-out pages). */
export interface PageChrome {
  user?: { name: string; email: string };
  /** The signed-in session's CSRF token, for the sign-out form and forms in `body`. */
  csrfToken?: string;
  /** Organizations of the signed-in user (the switcher) and the current one. */
  organizations?: readonly ChromeOrganization[];
  organizationId?: string;
  /** The navigation entry to highlight: websites, apiKeys, members, invitations, billing, clients, outbox. */
  nav?: string;
  /** Shows the dev outbox link (dev only: no SMTP server configured). */
  devOutbox?: boolean;
  /** Whether the user may call an operation in the current organization: navigation they cannot use is hidden. */
  can?: (operationId: OperationId) => boolean;
  /** A notice above every signed-in page's body (the pending email verification). */
  banner?: SafeHtml;
}

export interface PageOptions extends PageChrome {
  title: string;
  body: SafeHtml;
  status?: number;
  headers?: Record<string, string>;
}

/** A hidden CSRF field for a form of a signed-in page. */
export function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrfToken}">`;
}

/** Client niceties only: copy buttons (hidden without JavaScript). */
const script = `document.querySelectorAll("[data-copy]").forEach(function(b){b.hidden=false;b.addEventListener("click",
function(){var t=document.getElementById(b.getAttribute("data-copy"));if(!t)return;var done=function(){var l=b.textContent;
b.textContent="Copied";setTimeout(function(){b.textContent=l},1500)};t.select();if(navigator.clipboard){navigator.clipboard
.writeText(t.value).then(done,function(){document.execCommand("copy");done()})}else{document.execCommand("copy");done()}})});`;

function navLink(href: string, label: string, icon: SafeHtml, active: boolean): SafeHtml {
  return html`<a href="${href}"${active ? raw(' aria-current="page"') : ""}>${icon}<span>${label}</span></a>`;
}

function sidebar(options: PageOptions): SafeHtml {
  const org = options.organizations?.find((o) => o.id === options.organizationId);
  const base = org ? `/orgs/${encodeURIComponent(org.id)}` : "";
  const n = options.nav;
  const can = options.can ?? (() => false);
  const orgNav = org
    ? html`<div class="nav-section nav"><div class="nav-title">Organization</div>
${navLink(`${base}/websites`, "Websites", icons.globe, n === "websites")}
${can("apiKeys.list") ? navLink(`${base}/api-keys`, "API keys", icons.key, n === "apiKeys") : ""}
${can("organizations.members.list") ? navLink(`${base}/members`, "Members", icons.users, n === "members") : ""}
${can("organizations.invitations.list") ? navLink(`${base}/invitations`, "Invitations", icons.mail, n === "invitations") : ""}
${can("billing.state.get") ? navLink(`${base}/billing`, "Billing", icons.card, n === "billing") : ""}
</div>`
    : "";
  return html`<nav class="sidebar" aria-label="Main">${orgNav}<div class="nav-section nav"><div class="nav-title">Account</div>
${navLink("/account/connected-clients", "Connected clients", icons.plug, n === "clients")}
${options.devOutbox ? navLink("/dev/outbox", "Dev outbox", icons.inbox, n === "outbox") : ""}
</div></nav>`;
}

function switcher(options: PageOptions): SafeHtml {
  const orgs = options.organizations ?? [];
  const current = orgs.find((o) => o.id === options.organizationId);
  return html`<span class="slash">/</span><details class="menu" data-testid="org-switcher">
<summary><span class="truncate">${current?.name ?? "Select organization"}</span></summary>
<div class="menu-panel"><div class="menu-label">Organizations</div>
${orgs.map(
  (o) =>
    html`<a href="/orgs/${encodeURIComponent(o.id)}/websites"${o.id === current?.id ? raw(' class="current"') : ""}>${o.name}</a>`,
)}
<div class="menu-sep"></div><a href="/orgs/new">${icons.plus} New organization</a></div></details>`;
}

function userMenu(options: PageOptions): SafeHtml {
  const user = options.user!;
  const initial = (user.name || user.email).trim().charAt(0).toUpperCase();
  return html`<details class="menu"><summary aria-label="Account menu"><span class="avatar">${initial}</span>
<span class="hide-sm">${user.name}</span></summary><div class="menu-panel right">
<div class="menu-label">${user.email}</div>
<a href="/account/connected-clients">Connected clients</a>
${options.devOutbox ? html`<a href="/dev/outbox">Dev outbox</a>` : ""}
<div class="menu-sep"></div>
<form method="post" action="/signout">${options.csrfToken ? csrfField(options.csrfToken) : ""}<button type="submit">Sign out</button></form>
</div></details>`;
}

const brand = html`<a class="brand" href="/"><span class="logo">S</span><span class="brand-name">Sitewright</span></a>`;

function frame(options: PageOptions): SafeHtml {
  if (!options.user) return html`<div class="auth">${brand}<main>${options.body}</main></div>`;
  return html`<header class="topbar">${brand}${switcher(options)}<span class="spacer"></span>${userMenu(options)}</header>
<div class="shell">${sidebar(options)}<main class="content">${options.banner ?? ""}${options.body}</main></div>`;
}

/**
 * A whole server-rendered page of the app host. Pages are never cached, never framed, and load nothing from
 * another origin (the stylesheet and the copy-button script are inline).
 */
export function renderPage(options: PageOptions): Response {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title} · Sitewright</title>
<style>${raw(stylesheet)}</style>
</head>
<body>
${frame(options)}
<script>${raw(script)}</script>
</body>
</html>`;
  return new Response(page.value, {
    status: options.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy":
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self' http: https: cursor: vscode:",
      "referrer-policy": "same-origin",
      ...options.headers,
    },
  });
}
