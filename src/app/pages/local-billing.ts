import type { H3 } from "h3";
import type { Platform } from "../../kernel/platform.ts";
import { completeCheckoutSession, getCheckoutSession } from "../../services/billing/checkout.ts";
import { safeReturnPath } from "../return-path.ts";
import { card, emptyState, flash, money, pageHeader, table } from "../ui/components.ts";
import { html } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import {
  type AppContext,
  appContext,
  errorFlash,
  handle,
  page,
  param,
  readForm,
  redirect,
} from "./context.ts";

/**
 * The local billing provider's hosted pages (no payment service in the embedded deployment): checkout, where
 * an owner completes a purchase in test mode, and the portal. A real provider hosts these itself.
 */

/** The open checkout session among the organizations the user owns. */
async function findSession(ctx: AppContext, sessionId: string) {
  const owned = ctx.organizations.filter((o) => o.role === "owner");
  const now = Date.now();
  for (const org of owned) {
    const session = await ctx.platform.db.read((stores) =>
      getCheckoutSession(stores, org.id, sessionId, now),
    );
    if (session) return { session, organization: org };
  }
  return undefined;
}

/** Where a hosted billing page sends the owner back: the return URL's path on the app, or "/" (never off it). */
const backTo = (ctx: AppContext, url: string | null) => safeReturnPath(ctx.platform.config.appUrl, url);

const notFoundBody = html`<section class="card">${emptyState(
  "Checkout not found",
  "This checkout session does not exist or belongs to an organization you don't own.",
  html`<a class="btn" href="/">Back to the dashboard</a>`,
)}</section>`;

export function registerLocalBillingPages(app: H3, platform: Platform): void {
  app.get(
    "/billing/checkout/:sessionId",
    handle(platform, appContext, async (ctx) => {
      const found = await findSession(ctx, param(ctx.event, "sessionId"));
      if (!found) return page(ctx, { title: "Checkout", status: 404, body: notFoundBody });
      const { session, organization } = found;
      const p = session.projection;
      const rows = p.lineItems.map((i) => [
        i.title ?? i.description ?? "",
        i.amount === undefined ? "—" : money(i.amount, p.currency),
      ]);
      const open = session.status === "open";
      return page(ctx, {
        title: "Checkout",
        body: html`${pageHeader("Checkout", html`For ${organization.name}. Test mode: no card is charged.`)}
${card({
  title: `Total due: ${money(p.total, p.currency)}`,
  flush: true,
  body: table(["Item", "Amount"], rows),
  footer: open
    ? html`<form method="post" class="form-actions">${csrfField(ctx.csrf)}<a class="btn" href="${backTo(ctx, session.successUrl)}">Cancel</a>
<button type="submit" class="primary">Pay ${money(p.total, p.currency)}</button></form>`
    : html`<span class="muted">This checkout is ${session.status}.</span>`,
})}`,
      });
    }),
  );
  app.post(
    "/billing/checkout/:sessionId",
    handle(platform, appContext, async (ctx) => {
      const form = await readForm(ctx);
      if (form instanceof Response) return form;
      const found = await findSession(ctx, param(ctx.event, "sessionId"));
      if (!found) return page(ctx, { title: "Checkout", status: 404, body: notFoundBody });
      try {
        const { session } = await completeCheckoutSession(
          ctx.platform.db,
          found.organization.id,
          found.session.id,
        );
        return redirect(backTo(ctx, session.successUrl));
      } catch (error) {
        return page(ctx, { title: "Checkout", status: 409, body: flash(errorFlash(error)) });
      }
    }),
  );
  app.get(
    "/billing/portal",
    handle(platform, appContext, async (ctx) => {
      const back = backTo(ctx, ctx.event.url.searchParams.get("returnUrl"));
      return page(ctx, {
        title: "Billing portal",
        body: html`${pageHeader("Billing portal", "Test mode: the local billing provider keeps no cards or invoices.")}
${card({ body: html`<p>Payment methods and invoices live with the payment provider in production.</p><a class="btn primary" href="${back}">Return to billing</a>` })}`,
      });
    }),
  );
}
