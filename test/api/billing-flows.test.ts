import { expect, it } from "vitest";
import { z } from "zod";
import type { BillingAccountRecord } from "../../src/db/stores/billing.ts";
import { addMonths } from "../../src/services/billing/account.ts";
import { getCheckoutSession } from "../../src/services/billing/checkout.ts";
import { billingOrganization, failure } from "../support/billing.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

// The billing state and price projection of the API contract, written out by hand (not from the tool schemas).
const meter = z.strictObject({
  included: z.number(),
  prepaid: z.number(),
  used: z.number(),
  remainingIncluded: z.number(),
  remainingPrepaid: z.number(),
  remaining: z.number(),
  settledRemaining: z.number(),
  unlimited: z.boolean(),
  nextResetAt: z.number().optional(),
});
const specState = z.strictObject({
  organizationId: z.string(),
  status: z.enum(["no_subscription", "active", "billing_grace"]),
  complimentary: z.boolean(),
  subscription: z
    .strictObject({
      plan: z.enum(["pro", "enterprise"]),
      interval: z.enum(["monthly", "annual"]).optional(),
      aiCreditTier: z.number().optional(),
      currentPeriodEnd: z.number().optional(),
      canceledAtPeriodEnd: z.boolean(),
    })
    .optional(),
  capabilities: z.strictObject({ analytics_view: z.boolean() }),
  meters: z.strictObject({ ai_credits: meter }),
  usageBalance: meter.optional(),
  creditGrants: z.array(
    z.strictObject({
      id: z.string(),
      credits: z.number(),
      remaining: z.number(),
      expiresAt: z.number().optional(),
    }),
  ),
  billableSiteCapacity: z.number().optional(),
  billableSiteCount: z.number().optional(),
});
const specProjection = z.strictObject({
  total: z.number().nullable(),
  currency: z.string().nullable(),
  lineItems: z.array(
    z.strictObject({
      title: z.string().optional(),
      description: z.string().optional(),
      amount: z.number().optional(),
      quantity: z.number().optional(),
    }),
  ),
});

/** A fresh organization with its owner, and helpers that act as that owner. */
async function organization(ctx: MatrixContext, name: string) {
  const org = await billingOrganization(ctx, name);
  const { call, complete } = org;
  const state = async () => specState.parse(await call("billing.state.get"));
  const preview = async (operationId: string, input: Record<string, unknown>) => {
    const projection = specProjection.parse(await call(operationId, input));
    const sum = projection.lineItems.reduce((total, item) => total + (item.amount ?? 0), 0);
    expect(projection.total).toBe(sum);
    expect(projection.currency).toBe("usd");
    return projection;
  };
  return {
    ...org,
    state,
    preview,
    async subscribe(interval: "monthly" | "annual", aiCreditTier?: number) {
      const input = { plan: "pro", interval, ...(aiCreditTier ? { aiCreditTier } : {}) };
      const { paymentUrl } = await call("billing.plan.checkoutChange", input);
      await complete(paymentUrl);
    },
  };
}

const appUrl = "http://localhost:8787";

describeMatrix("billing: owner flows", (ctx) => {
  it("a free organization's state is exactly the contract's shape", async () => {
    const org = await organization(ctx, "Free org");
    await ctx.t.call(
      "websites.create",
      { name: "No domain", organizationId: org.organizationId },
      org.principal,
    );
    const now = new Date();
    expect(await org.state()).toEqual({
      organizationId: org.organizationId,
      status: "no_subscription",
      complimentary: false,
      capabilities: { analytics_view: false },
      meters: {
        ai_credits: {
          included: 100,
          prepaid: 0,
          used: 0,
          remainingIncluded: 100,
          remainingPrepaid: 0,
          remaining: 100,
          settledRemaining: 100,
          unlimited: false,
          nextResetAt: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
        },
      },
      creditGrants: [],
      billableSiteCapacity: 0,
      billableSiteCount: 0,
    });
    expect(await org.account()).toBeUndefined();
  });

  it("lists unexpired support grants soonest-expiring first and counts them as spendable", async () => {
    const org = await organization(ctx, "Granted org");
    const now = Date.now();
    const grant = (id: string, remaining: number, expiresAt: number | null) =>
      ctx.t.platform.db.transaction((s) =>
        s.billing.insertGrant({
          id,
          organizationId: org.organizationId,
          credits: 500,
          remaining,
          expiresAt,
          createdAt: now,
        }),
      );
    await grant(`g-forever-${ctx.mode}`, 500, null);
    await grant(`g-soon-${ctx.mode}`, 200, now + 86_400_000);
    await grant(`g-expired-${ctx.mode}`, 300, now - 1);
    const state = await org.state();
    expect(state.creditGrants).toEqual([
      { id: `g-soon-${ctx.mode}`, credits: 500, remaining: 200, expiresAt: now + 86_400_000 },
      { id: `g-forever-${ctx.mode}`, credits: 500, remaining: 500 },
    ]);
    expect(state.meters.ai_credits).toMatchObject({
      remainingIncluded: 100,
      settledRemaining: 800,
      remaining: 800,
    });
  });

  it("subscribes through hosted checkout: preview, checkout, complete, then active", async () => {
    const org = await organization(ctx, "Subscribing org");
    const projection = await org.preview("billing.plan.previewChange", { plan: "pro", interval: "monthly" });
    expect(projection.total).toBe(2900);
    expect(projection.lineItems.map((item) => item.amount)).toEqual([2900, 0]);
    const annual = await org.preview("billing.plan.previewChange", {
      plan: "pro",
      interval: "annual",
      aiCreditTier: 4000,
    });
    expect(annual.total).toBe(29000 + 35000);

    const successUrl = "https://example.com/billing/done";
    const { paymentUrl } = await org.call("billing.plan.checkoutChange", {
      plan: "pro",
      interval: "monthly",
      successUrl,
    });
    expect(paymentUrl).toMatch(new RegExp(`^${appUrl}/billing/checkout/[0-9A-Za-z_-]{21}$`));
    expect((await org.state()).status).toBe("no_subscription");
    expect((await org.events()).map((e) => e.type)).toEqual(["checkout.session.created"]);
    const sessionId = paymentUrl.split("/").pop()!;
    const open = await ctx.t.platform.db.read((s) =>
      getCheckoutSession(s, org.organizationId, sessionId, Date.now()),
    );
    expect(open).toMatchObject({ status: "open", successUrl, projection });

    const before = Date.now();
    const { session, state } = await org.complete(paymentUrl);
    expect(session).toMatchObject({ status: "completed", successUrl });
    const after = await org.state();
    expect(after).toEqual(state);
    expect(after).toMatchObject({
      status: "active",
      complimentary: false,
      subscription: { plan: "pro", interval: "monthly", aiCreditTier: 1000, canceledAtPeriodEnd: false },
      capabilities: { analytics_view: true },
      meters: { ai_credits: { included: 1000, remainingIncluded: 1000, remaining: 1000, used: 0 } },
      usageBalance: { included: 0, prepaid: 0, used: 0, remaining: 0, unlimited: false },
      billableSiteCapacity: 1,
      billableSiteCount: 0,
    });
    expect(after.usageBalance!.nextResetAt).toBeUndefined();
    const periodEnd = after.subscription!.currentPeriodEnd!;
    expect(periodEnd).toBeGreaterThanOrEqual(addMonths(before, 1));
    expect(periodEnd).toBeLessThanOrEqual(addMonths(Date.now(), 1));
    expect(after.meters.ai_credits.nextResetAt).toBe(periodEnd);

    expect(await failure(org.complete(paymentUrl))).toMatchObject({ kind: "conflict" });
    expect(await failure(org.complete(`${appUrl}/billing/checkout/${"x".repeat(21)}`))).toMatchObject({
      kind: "not_found",
    });
    const second = await org.call("billing.plan.checkoutChange", { plan: "pro", interval: "monthly" });
    expect(second).toEqual({ paymentUrl: null });
    expect((await org.events()).map((e) => e.type)).toEqual([
      "checkout.session.created",
      "checkout.session.completed",
    ]);
  });

  it("monthly to annual applies at once with paymentUrl null, crediting the unused month", async () => {
    const org = await organization(ctx, "Going annual");
    await org.subscribe("monthly");
    const projection = await org.preview("billing.plan.previewChange", { plan: "pro", interval: "annual" });
    const credit = projection.lineItems.at(-1)!;
    expect(credit.amount).toBeLessThan(0);
    expect(credit.amount).toBeGreaterThanOrEqual(-2900);
    expect(projection.total).toBe(29000 + credit.amount!);

    const before = Date.now();
    expect(await org.call("billing.plan.checkoutChange", { plan: "pro", interval: "annual" })).toEqual({
      paymentUrl: null,
    });
    const state = await org.state();
    expect(state.subscription).toMatchObject({ plan: "pro", interval: "annual", aiCreditTier: 1000 });
    expect(state.subscription!.currentPeriodEnd).toBeGreaterThanOrEqual(addMonths(before, 12));
    const changed = (await org.events()).filter((e) => e.type === "plan.changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]!.payload).toMatchObject({ charged: projection.total, currency: "usd" });
  });

  it("annual to monthly is scheduled for renewal and applies when the period renews", async () => {
    const org = await organization(ctx, "Going monthly");
    await org.subscribe("annual", 2000);
    const projection = await org.preview("billing.plan.previewChange", {
      plan: "pro",
      interval: "monthly",
      aiCreditTier: 2000,
    });
    expect(projection.total).toBe(0);
    expect(projection.lineItems[0]).toMatchObject({ title: "Switch to monthly billing" });
    expect(
      await org.call("billing.plan.checkoutChange", { plan: "pro", interval: "monthly", aiCreditTier: 2000 }),
    ).toEqual({ paymentUrl: null });
    expect((await org.state()).subscription).toMatchObject({ interval: "annual", aiCreditTier: 2000 });
    expect(await org.account()).toMatchObject({ interval: "annual", pendingInterval: "monthly" });

    const end = Date.now() - 60_000;
    await org.patchAccount({
      currentPeriodStart: addMonths(end, -12),
      currentPeriodEnd: end,
      aiCreditsUsed: 50,
    });
    const renewed = await org.state();
    expect(renewed.subscription).toMatchObject({ interval: "monthly", currentPeriodEnd: addMonths(end, 1) });
    expect(renewed.meters.ai_credits).toMatchObject({ included: 2000, used: 0 });
  });

  it("a cancellation scheduled for the period end returns to the free plan, keeping prepaid credits", async () => {
    const org = await organization(ctx, "Leaving");
    await org.subscribe("monthly");
    const end = Date.now() - 1000;
    await org.patchAccount({
      canceledAtPeriodEnd: true,
      currentPeriodStart: addMonths(end, -1),
      currentPeriodEnd: end,
      prepaidCredits: 400,
    });
    const state = await org.state();
    expect(state.status).toBe("no_subscription");
    expect(state.subscription).toBeUndefined();
    expect(state).toMatchObject({ capabilities: { analytics_view: false }, billableSiteCapacity: 0 });
    expect(state.meters.ai_credits).toMatchObject({ included: 100, prepaid: 400, remaining: 500 });
    expect(state.usageBalance).toMatchObject({ prepaid: 400, remaining: 400 });
  });

  it("complimentary and enterprise plans are reported but not changed self-serve", async () => {
    const org = await organization(ctx, "Managed");
    const account: BillingAccountRecord = {
      organizationId: org.organizationId,
      status: "active",
      complimentary: true,
      plan: "pro",
      interval: null,
      aiCreditTier: 8000,
      pendingInterval: null,
      pendingAiCreditTier: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      canceledAtPeriodEnd: false,
      aiCreditsUsed: 0,
      aiCreditsReserved: 100,
      prepaidCredits: 0,
      prepaidUsed: 0,
      billableSiteCapacity: 3,
      updatedAt: Date.now(),
    };
    await ctx.t.platform.db.transaction((s) => s.billing.putAccount(account));
    const state = await org.state();
    expect(state).toMatchObject({
      status: "active",
      complimentary: true,
      subscription: { plan: "pro", aiCreditTier: 8000, canceledAtPeriodEnd: false },
      meters: { ai_credits: { included: 8000, settledRemaining: 8000, remaining: 7900 } },
      billableSiteCapacity: 3,
    });
    expect(Object.keys(state.subscription!).sort()).toEqual(["aiCreditTier", "canceledAtPeriodEnd", "plan"]);
    const plan = await failure(org.call("billing.plan.checkoutChange", { plan: "pro", interval: "annual" }));
    expect(plan).toMatchObject({ kind: "conflict", message: expect.stringContaining("complimentary") });
    const tier = await failure(org.call("billing.aiCreditTier.update", { aiCreditTier: 20000 }));
    expect(tier).toMatchObject({ kind: "conflict", message: expect.stringContaining("complimentary") });

    await org.patchAccount({ complimentary: false, plan: "enterprise", aiCreditTier: null });
    const enterprise = await org.state();
    expect(enterprise.subscription).toEqual({ plan: "enterprise", canceledAtPeriodEnd: false });
    expect(enterprise.meters.ai_credits.unlimited).toBe(true);
    const preview = await failure(
      org.call("billing.plan.previewChange", { plan: "pro", interval: "monthly" }),
    );
    expect(preview).toMatchObject({ kind: "conflict", message: expect.stringContaining("enterprise") });
  });

  it("opens the billing portal with a return URL", async () => {
    const org = await organization(ctx, "Portal org");
    const { url } = await org.call("billing.portal.open", { returnUrl: "https://example.com/back?x=1" });
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${appUrl}/billing/portal`);
    expect(parsed.searchParams.get("organizationId")).toBe(org.organizationId);
    expect(parsed.searchParams.get("returnUrl")).toBe("https://example.com/back?x=1");
    const fallback = new URL((await org.call("billing.portal.open")).url);
    expect(fallback.searchParams.get("returnUrl")).toBe(`${appUrl}/billing`);
    expect(
      await failure(org.call("billing.portal.open", { returnUrl: "javascript:alert(1)" })),
    ).toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^returnUrl: /),
    });
    expect((await org.events()).filter((e) => e.type === "portal.session.created")).toHaveLength(2);
  });
});
