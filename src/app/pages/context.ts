import { getRouterParams, type H3Event } from "h3";
import { type Call, callerFor, type OperationId } from "../../../tools/index.ts";
import { sameOriginRequest } from "../../accounts/csrf.ts";
import { checkCsrf, type SignedIn } from "../../accounts/session.ts";
import { loadUserPrincipal } from "../../auth/users.ts";
import { ApiError, renderSuggestion, toApiError } from "../../kernel/errors.ts";
import { type CallPlace, canCall } from "../../kernel/pipeline.ts";
import type { Platform } from "../../kernel/platform.ts";
import type { Principal } from "../../kernel/principal.ts";
import { reportFailure } from "../../kernel/request-scope.ts";
import { BodyRefused, bodyLimit, readUrlEncoded } from "../../rest/body.ts";
import { errorResponse } from "../../rest/http.ts";
import { requestIdOf } from "../../rest/request-meta.ts";
import { redirect, requireSignedIn } from "../guard.ts";
import { emptyState, type Flash } from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import { type ChromeOrganization, csrfField, renderPage } from "../ui/layout.ts";

/** A signed-in page request: the session, the user's principal as the database says now, their organizations. */
export interface AppContext {
  platform: Platform;
  event: H3Event;
  signedIn: SignedIn;
  principal: Principal;
  organizations: ChromeOrganization[];
  /** The organization named in the URL (the user holds a grant there), if any. */
  organization?: ChromeOrganization;
  csrf: string;
  /** Runs an operation through the one pipeline as the signed-in user. */
  call: Call;
  /** Whether the user may call an operation in an organization or on one of its websites (what pages show). */
  can(operationId: OperationId, where: CallPlace): boolean;
}

export type OrgContext = AppContext & { organization: ChromeOrganization };

/** The transport recorded in audit entries of dashboard calls. */
const TRANSPORT = "dashboard" as const;

/** Builds the context of a signed-in page, or the response to send instead (a redirect to sign in). */
export async function appContext(platform: Platform, event: H3Event): Promise<AppContext | Response> {
  const signedIn = await requireSignedIn(platform, event);
  if (signedIn instanceof Response) return signedIn;
  const principal = await platform.db.read((stores) => loadUserPrincipal(stores, signedIn.user.id));
  if (!principal) return redirect("/signin");
  const requestId = requestIdOf(event);
  const call = callerFor(platform, { principal, transport: TRANSPORT, requestId });
  const can = (operationId: OperationId, where: CallPlace) => {
    const tool = platform.registry.byOperationId(operationId);
    return tool !== undefined && canCall(principal, tool, where);
  };
  // A user without any grant (left every organization) has no organizations to list.
  const listed = principal.grants.length ? await call("organizations.list", { limit: 100 }) : { items: [] };
  const organizations = listed.items.map((o) => ({ id: o.id, name: o.name, role: o.role }));
  return { platform, event, signedIn, principal, organizations, csrf: signedIn.csrfToken, call, can };
}

/** Like appContext, for pages under `/orgs/:organizationId` (a 404 page when the user has no grant there). */
export async function orgContext(platform: Platform, event: H3Event): Promise<OrgContext | Response> {
  const ctx = await appContext(platform, event);
  if (ctx instanceof Response) return ctx;
  const id = param(event, "organizationId");
  const organization = ctx.organizations.find((o) => o.id === id);
  if (!organization) return errorPage(ctx, new ApiError("not_found", "This organization was not found."));
  return { ...ctx, organization };
}

/**
 * A posted form field, handed to an operation as the type its input declares. The page does not re-validate it:
 * the operation's input schema does, and a forged value comes back as the validation error the page shows.
 */
export function formField<T extends string = string>(form: URLSearchParams, name: string): T {
  return (form.get(name) ?? "") as T;
}

/** A decoded route parameter. */
export const param = (event: H3Event, name: string): string =>
  getRouterParams(event, { decode: true })[name] ?? "";

/** Whether the dev outbox exists (no SMTP server configured). */
export const devMode = (platform: Platform) => !platform.config.smtpUrl;

/** A page inside the chrome of the signed-in app. */
export function page(
  ctx: AppContext,
  options: { title: string; nav?: string; body: SafeHtml; status?: number },
): Response {
  const organizationId = ctx.organization?.id ?? ctx.organizations[0]?.id;
  return renderPage({
    ...options,
    user: { name: ctx.signedIn.user.name, email: ctx.signedIn.user.email },
    csrfToken: ctx.csrf,
    organizations: ctx.organizations,
    organizationId,
    can: (operationId: OperationId) =>
      organizationId !== undefined && ctx.can(operationId, { organizationId }),
    devOutbox: devMode(ctx.platform),
    ...(ctx.signedIn.user.emailVerifiedAt === null ? { banner: verifyBanner(ctx) } : {}),
  });
}

/** The banner of a user whose email is not verified yet: what is pending, and a resend button. */
function verifyBanner(ctx: AppContext): SafeHtml {
  return html`<div class="flash info" role="status" data-testid="verify-email-banner"><div><strong>Verify your email address: ${ctx.signedIn.user.email} is pending verification.</strong>
<p>Open the link we mailed to it, signed in as you are now. Until then, invitations and access granted to this address do not apply to your account.</p></div>
<form method="post" action="/account/verify-email/resend" style="margin-left:auto">${csrfField(ctx.csrf)}<button type="submit" class="small">Send the link again</button></form></div>`;
}

/** An operation's failure as a flash message (message and suggestion, operations named by their ids). */
export function errorFlash(error: unknown): Flash {
  const failure = toApiError(error);
  const { suggestion } = failure.options;
  return {
    kind: "error",
    message: failure.message,
    ...(suggestion ? { suggestion: renderSuggestion(suggestion, (id) => id) } : {}),
  };
}

const titles: Partial<Record<string, string>> = {
  forbidden: "You don't have access to this page",
  not_found: "Not found",
  rate_limited: "Slow down",
};

/** A full error page for a GET that failed (403 for missing permissions, 404 for things out of reach). */
export function errorPage(ctx: AppContext, error: unknown): Response {
  const failure = toApiError(error);
  const f = errorFlash(failure);
  const title = titles[failure.kind] ?? "Something went wrong";
  const text =
    failure.kind === "forbidden" ? "Your role in this organization does not include this page." : f.message;
  return page(ctx, {
    title,
    status: failure.status,
    body: html`<section class="card">${emptyState(title, text, html`<a class="btn" href="/">Back to the dashboard</a>`)}</section>`,
  });
}

/**
 * The posted form of a signed-in page after its CSRF checks (the session's token in the `csrf` field, and no
 * cross-origin `Origin` or `Sec-Fetch-Site`); a 403 page otherwise, and nothing is changed. Only url-encoded
 * bodies are read (the dashboard's forms send nothing else), bounded by the form body limit: a larger one is
 * refused with 413 before it is buffered.
 */
export async function readForm(ctx: AppContext): Promise<URLSearchParams | Response> {
  const type = ctx.event.req.headers.get("content-type") ?? "";
  const form = /^application\/x-www-form-urlencoded\b/i.test(type)
    ? await readUrlEncoded(ctx.event.req, bodyLimit(ctx.platform.config, "form"))
    : new URLSearchParams();
  if (!sameOriginRequest(ctx.platform, ctx.event.req) || !checkCsrf(ctx.signedIn, form.get("csrf"))) {
    return page(ctx, {
      title: "Form expired",
      status: 403,
      body: html`<section class="card">${emptyState(
        "This form has expired",
        "The request was refused because it did not carry this session's security token. Nothing was changed. Go back, reload the page and try again.",
        html`<a class="btn" href="/">Back to the dashboard</a>`,
      )}</section>`,
    });
  }
  return form;
}

/** Runs a page handler: a context failure or an unexpected error becomes an error page, never a crash. */
export function handle<C extends AppContext>(
  platform: Platform,
  build: (platform: Platform, event: H3Event) => Promise<C | Response>,
  handler: (ctx: C) => Promise<Response>,
) {
  return async (event: H3Event): Promise<Response> => {
    const ctx = await build(platform, event);
    if (ctx instanceof Response) return ctx;
    try {
      return await handler(ctx);
    } catch (error) {
      if (error instanceof BodyRefused) return errorResponse(error);
      if (!(error instanceof ApiError))
        reportFailure(platform.log, `page ${event.url.pathname} failed`, error);
      return errorPage(ctx, error);
    }
  };
}

/** What a failed form action re-renders its page with: the operation's error as a flash, and its HTTP status. */
export interface FormFailure {
  flash: Flash;
  status: number;
}

/**
 * A POST route of a signed-in page: reads the form with readForm's CSRF checks (their 403 page otherwise), runs
 * `action`, and when it throws, re-renders the page through `onError` with the failure and the submitted form
 * (for pages that keep what was typed). Anything else is handle's.
 */
export function formAction<C extends AppContext>(
  platform: Platform,
  build: (platform: Platform, event: H3Event) => Promise<C | Response>,
  onError: (ctx: C, failure: FormFailure, form: URLSearchParams) => Promise<Response> | Response,
  action: (ctx: C, form: URLSearchParams) => Promise<Response>,
) {
  return handle(platform, build, async (ctx) => {
    const form = await readForm(ctx);
    if (form instanceof Response) return form;
    try {
      return await action(ctx, form);
    } catch (error) {
      return onError(ctx, { flash: errorFlash(error), status: statusOf(error) }, form);
    }
  });
}

/** Fixed success notices, addressed by code in `?done=` after a redirect (never free text from the URL). */
const notices: Record<string, string> = {
  "website-created": "Website created.",
  "key-revoked": "API key revoked. It stops working on the next request.",
  "role-changed": "Role updated.",
  "member-removed": "Member removed.",
  "invitation-sent": "Invitation sent.",
  "invitation-revoked": "Invitation revoked.",
  "invitation-resent": "Invitation sent again with a fresh link.",
  "editor-granted": "Editor access granted.",
  "editor-revoked": "Editor access revoked.",
  "editor-invited": "Invitation sent.",
  "plan-changed": "Plan updated.",
  "tier-changed": "AI credit tier updated.",
  "client-revoked": "Connected client revoked. Its tokens stop working at once.",
  "organization-created": "Organization created.",
  joined: "Invitation accepted. Welcome aboard.",
  "checkout-complete": "Payment complete.",
  "website-published": "Draft published. The live site serves it now.",
  "rolled-back": "Rolled back. The live site serves the chosen deployment now.",
  "item-saved": "Draft saved. Preview it, then publish the item.",
  "item-unchanged": "Nothing to save: the values are the same.",
  "item-published": "Item published. The live site shows it after the website's next publish.",
  "item-unpublished": "Item unpublished. The live site drops it on the website's next publish.",
  "email-verified": "Email address verified. Invitations and access granted to it now apply.",
  "verification-sent": "A new verification link is on its way. Earlier links no longer work.",
  "domain-added": "Domain added. Create its DNS records, then verify it.",
  "domain-checked": "DNS records checked. Each record shows what was found.",
  "domain-primary": "Primary domain set. Every other address of the website redirects to it.",
  "domain-removed": "Domain removed. The website no longer answers on it.",
  "submissions-updated": "Submissions updated.",
  "submissions-deleted": "Submissions deleted.",
  "form-settings-saved": "Form settings saved. The live site applies them to the next submission.",
  "recipient-added": "Recipient added. They receive submissions once they confirm the link we mailed them.",
  "asset-uploaded": "Uploaded. The library shows the new files first.",
  "asset-saved": "Asset saved.",
  "asset-deleted": "Asset deleted. Its URL no longer serves it.",
  "context-uploaded": "Uploaded. The documents' text is ready to search.",
  "context-renamed": "Document renamed.",
  "context-deleted": "Document deleted with its text.",
  "recipient-removed": "Recipient removed. They receive no more submissions.",
  "secret-set": "Secret set. Functions read the new value from their next run.",
  "secret-deleted": "Secret deleted. Functions no longer get it in env.",
};

/** The success notice named by `?done=` on the current URL, if any. */
export function notice(ctx: AppContext): Flash | undefined {
  const message = notices[ctx.event.url.searchParams.get("done") ?? ""];
  return message ? { kind: "success", message } : undefined;
}

/** A 303 to `path` with a success notice. */
export function done(path: string, code: string): Response {
  return redirect(`${path}${path.includes("?") ? "&" : "?"}done=${code}`);
}

/** The HTTP status of a failed operation (400, 403, 404, 409...). */
export function statusOf(error: unknown): number {
  return toApiError(error).status;
}

/** The base path of the current organization's pages. */
export const orgPath = (ctx: OrgContext, rest = "") =>
  `/orgs/${encodeURIComponent(ctx.organization.id)}${rest}`;

export { redirect };
