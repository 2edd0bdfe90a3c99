import type { H3 } from "h3";
import type { Platform } from "../../kernel/platform.ts";
import { aiCreditTiers, MIN_TOP_UP_CREDITS } from "../../services/billing/prices.ts";
import type { BillingState, PriceProjection } from "../../services/billing/provider.ts";
import { badge, card, type Flash, field, flash, money, pageHeader, select, table } from "../ui/components.ts";
import { html, type SafeHtml } from "../ui/html.ts";
import { csrfField } from "../ui/layout.ts";
import {
  done,
  formAction,
  handle,
  notice,
  type OrgContext,
  orgContext,
  orgPath,
  page,
  param,
  redirect,
} from "./context.ts";
import { creditUseCard } from "./credit-use.ts";

type Kind = "plan" | "tier" | "topup";

/** A previewed change waiting for confirmation: the operation's input and what it costs now. */
interface Preview {
  kind: Kind;
  input: Record<string, string>;
  projection: PriceProjection;
}

const n = (value: number) => value.toLocaleString("en-US");
const date = (ms: number | undefined) => (ms ? new Date(ms).toISOString().slice(0, 10) : "—");

const operations = {
  plan: {
    preview: "billing.plan.previewChange",
    confirm: "billing.plan.checkoutChange",
    done: "plan-changed",
  },
  tier: {
    preview: "billing.aiCreditTier.previewChange",
    confirm: "billing.aiCreditTier.update",
    done: "tier-changed",
  },
  topup: {
    preview: "billing.usageTopUp.preview",
    confirm: "billing.usageTopUp.checkout",
    done: "checkout-complete",
  },
} as const;

const titles: Record<Kind, string> = {
  plan: "Plan change",
  tier: "AI credit tier change",
  topup: "Credit top-up",
};

/** The operation input of a billing form (numbers parsed; successUrl back to this page). */
function inputOf(ctx: OrgContext, kind: Kind, form: URLSearchParams): Record<string, unknown> {
  const organizationId = ctx.organization.id;
  const successUrl = `${ctx.platform.config.appUrl}${orgPath(ctx, "/billing")}?done=checkout-complete`;
  if (kind === "plan") {
    return {
      organizationId,
      plan: "pro",
      interval: form.get("interval") ?? "",
      aiCreditTier: Number(form.get("aiCreditTier")),
      successUrl,
    };
  }
  if (kind === "tier") return { organizationId, aiCreditTier: Number(form.get("aiCreditTier")), successUrl };
  return { organizationId, credits: Number(form.get("credits")), successUrl };
}

function stateCards(state: BillingState): SafeHtml {
  const sub = state.subscription;
  const ai = state.meters.ai_credits;
  const statusBadge =
    state.status === "active"
      ? badge("Active", "success")
      : state.status === "billing_grace"
        ? badge("Past due", "danger")
        : badge("Free plan");
  const plan = sub
    ? `${sub.plan === "pro" ? "Pro" : "Enterprise"}${sub.interval ? ` · ${sub.interval}` : ""}`
    : "Free";
  return html`<div class="stats">
<div class="stat"><p class="label">Plan</p><div class="value">${plan}</div><div class="small">${statusBadge}${
    sub?.canceledAtPeriodEnd ? html` ${badge("Cancels at period end", "warn")}` : ""
  }</div></div>
<div class="stat"><p class="label">AI credits left</p><div class="value">${ai.unlimited ? "Unlimited" : n(ai.remaining)}</div>
<div class="small muted">${n(ai.used)} used of ${n(ai.included)} included${ai.nextResetAt ? html` · resets ${date(ai.nextResetAt)}` : ""}</div></div>
<div class="stat"><p class="label">Prepaid balance</p><div class="value">${n(state.usageBalance?.remaining ?? 0)}</div><div class="small muted">Top-up credits never expire</div></div>
<div class="stat"><p class="label">Renews</p><div class="value">${date(sub?.currentPeriodEnd)}</div><div class="small muted">${
    sub?.aiCreditTier ? `${n(sub.aiCreditTier)} credits / month` : "No subscription"
  }</div></div></div>`;
}

function previewCard(ctx: OrgContext, preview: Preview): SafeHtml {
  const p = preview.projection;
  const rows = p.lineItems.map((item) => [
    html`<div class="cell-title">${item.title ?? item.description ?? ""}</div>${
      item.title && item.description ? html`<div class="cell-sub">${item.description}</div>` : ""
    }`,
    item.quantity === undefined ? "" : n(item.quantity),
    item.amount === undefined
      ? html`<span class="muted">Not charged now</span>`
      : money(item.amount, p.currency),
  ]);
  return card({
    id: "preview",
    title: `Review: ${titles[preview.kind]}`,
    description: "Nothing changes until you confirm.",
    flush: true,
    body: table(["Item", "Quantity", "Amount"], rows),
    footer: html`<span class="spacer"></span><strong style="margin-right:12px">Due now: ${money(p.total, p.currency)}</strong>
<form method="post" action="${orgPath(ctx, `/billing/${preview.kind}/confirm`)}" class="form-actions">${csrfField(ctx.csrf)}${Object.entries(
      preview.input,
    ).map(
      ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
    )}<a class="btn" href="${orgPath(ctx, "/billing")}">Cancel</a>
<button type="submit" class="primary">Confirm</button></form>`,
  });
}

function forms(ctx: OrgContext, state: BillingState): SafeHtml {
  const tiers = aiCreditTiers.map((t) => ({ value: String(t), label: `${n(t)} credits / month` }));
  const current = String(state.subscription?.aiCreditTier ?? aiCreditTiers[0]);
  const form = (kind: Kind, fields: SafeHtml, button: string) =>
    html`<form method="post" action="${orgPath(ctx, `/billing/${kind}/preview`)}" class="form-grid">${csrfField(ctx.csrf)}${fields}
<div class="form-actions"><button type="submit">${button}</button></div></form>`;
  return html`<div class="grid-2">
${card({
  title: state.subscription ? "Change plan" : "Upgrade to Pro",
  description:
    "Pro: custom domains, analytics and a monthly AI credit allowance. Annual billing gets two months free.",
  body: form(
    "plan",
    html`${select({
      label: "Billing interval",
      name: "interval",
      value: state.subscription?.interval ?? "monthly",
      options: [
        { value: "monthly", label: "Monthly" },
        { value: "annual", label: "Annual" },
      ],
    })}
${select({ label: "AI credits", name: "aiCreditTier", value: current, options: tiers })}`,
    "Preview plan change",
  ),
})}
${card({
  title: "AI credit tier",
  description: "Increases apply at once (prorated); decreases at renewal. Needs an active Pro plan.",
  body: form(
    "tier",
    select({ label: "Monthly AI credits", name: "aiCreditTier", value: current, options: tiers }),
    "Preview tier change",
  ),
})}
${card({
  title: "Top up credits",
  description: `Prepaid AI credits, spent after the monthly allowance. At least ${n(MIN_TOP_UP_CREDITS)}.`,
  body: form(
    "topup",
    field({
      label: "Credits",
      name: "credits",
      type: "number",
      value: String(MIN_TOP_UP_CREDITS),
      min: MIN_TOP_UP_CREDITS,
    }),
    "Preview top-up",
  ),
})}
${card({
  title: "Invoices and payment",
  description: "Update the payment method, read invoices or cancel in the billing portal.",
  body: html`<form method="post" action="${orgPath(ctx, "/billing/portal")}">${csrfField(ctx.csrf)}<button type="submit">Open billing portal</button></form>`,
})}
</div>`;
}

async function render(ctx: OrgContext, extra: { flash?: Flash; preview?: Preview; status?: number } = {}) {
  const state = (await ctx.call("billing.state.get", {
    organizationId: ctx.organization.id,
  })) as BillingState;
  return page(ctx, {
    title: "Billing",
    nav: "billing",
    status: extra.status,
    body: html`${pageHeader("Billing", "Only owners see this page; billing changes happen only here.")}
${flash(extra.flash ?? notice(ctx))}${stateCards(state)}${await creditUseCard(ctx)}${extra.preview ? previewCard(ctx, extra.preview) : ""}${forms(ctx, state)}`,
  });
}

/** Billing of the current organization (owners only): state, plan, AI credit tier and top-ups with a preview, the portal. */
export function registerBillingPages(app: H3, platform: Platform): void {
  app.get(
    "/orgs/:organizationId/billing",
    handle(platform, orgContext, (ctx) => render(ctx)),
  );
  app.post(
    "/orgs/:organizationId/billing/:kind/:step",
    formAction(platform, orgContext, render, async (ctx, form) => {
      const kind = param(ctx.event, "kind") as Kind;
      const step = param(ctx.event, "step");
      const ops = operations[kind];
      if (!ops || (step !== "preview" && step !== "confirm")) return render(ctx, { status: 404 });
      // the kind picks both the operation and its input (inputOf); the operation's input schema checks it
      const input = inputOf(ctx, kind, form) as never;
      if (step === "preview") {
        const projection = (await ctx.call(ops.preview, input)) as PriceProjection;
        const hidden = Object.fromEntries([...form].filter(([k]) => k !== "csrf"));
        return render(ctx, { preview: { kind, input: hidden, projection } });
      }
      const result = (await ctx.call(ops.confirm, input)) as { paymentUrl: string | null };
      return result.paymentUrl ? redirect(result.paymentUrl) : done(orgPath(ctx, "/billing"), ops.done);
    }),
  );
  app.post(
    "/orgs/:organizationId/billing/portal",
    formAction(platform, orgContext, render, async (ctx) => {
      const returnUrl = `${ctx.platform.config.appUrl}${orgPath(ctx, "/billing")}`;
      const portal = await ctx.call("billing.portal.open", {
        organizationId: ctx.organization.id,
        returnUrl,
      });
      return redirect(portal.url);
    }),
  );
}
