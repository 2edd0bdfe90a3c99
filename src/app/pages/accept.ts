import type { H3 } from "h3";
import { readSession } from "../../accounts/session.ts";
import type { Platform } from "../../kernel/platform.ts";
import { card, flash } from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { csrfField, renderPage } from "../ui/layout.ts";
import {
  type AppContext,
  appContext,
  done,
  errorFlash,
  page,
  readForm,
  redirect,
  statusOf,
} from "./context.ts";

/** The accept page the invitation mail links to. */
export const ACCEPT_PATH = "/invitations/accept";
const ACCEPT = ACCEPT_PATH;

function acceptBody(ctx: AppContext, token: string, failure?: ReturnType<typeof errorFlash>) {
  const user = ctx.signedIn.user;
  return html`${flash(failure)}${card({
    title: "You've been invited",
    description: "Accept to join the organization (or edit the website) you were invited to.",
    body: html`<p>You are signed in as <strong>${user.name}</strong> (${user.email}). The invitation is accepted for this account.</p>
<form method="post" action="${ACCEPT}" class="form-actions">${csrfField(ctx.csrf)}<input type="hidden" name="token" value="${token}">
<button type="submit" class="primary">Accept invitation</button><a class="btn" href="/">Not now</a></form>`,
  })}`;
}

/** The link in invitation mail: signed out, a prompt to sign in or sign up and come back; signed in, accept. */
export function registerAcceptPage(app: H3, platform: Platform): void {
  app.get(ACCEPT, async (event) => {
    const token = event.url.searchParams.get("token") ?? "";
    if (!(await readSession(platform, event.req))) {
      const next = encodeURIComponent(`${ACCEPT}?token=${encodeURIComponent(token)}`);
      return renderPage({
        title: "Accept invitation",
        body: html`<h1>You've been invited to Sitewright</h1>
<p class="muted">Sign in, or create an account with the email address the invitation was sent to, and you'll come straight back here to accept it.</p>
<div class="form-grid" style="margin-top:20px"><a class="btn primary" href="/signup?next=${next}">Create an account</a>
<a class="btn" href="/signin?next=${next}">Sign in</a></div>`,
      });
    }
    const ctx = await appContext(platform, event);
    if (ctx instanceof Response) return ctx;
    return page(ctx, { title: "Accept invitation", body: acceptBody(ctx, token) });
  });

  app.post(ACCEPT, async (event) => {
    const ctx = await appContext(platform, event);
    if (ctx instanceof Response) return ctx;
    const form = await readForm(ctx);
    if (form instanceof Response) return form;
    const token = form.get("token") ?? "";
    try {
      const accepted = await ctx.call("organizations.invitations.accept", { token });
      const organizationId = accepted?.organizationId as string | undefined;
      return organizationId
        ? done(`/orgs/${encodeURIComponent(organizationId)}/websites`, "joined")
        : redirect("/");
    } catch (error) {
      return page(ctx, {
        title: "Accept invitation",
        status: statusOf(error),
        body: acceptBody(ctx, token, errorFlash(error)),
      });
    }
  });
}
