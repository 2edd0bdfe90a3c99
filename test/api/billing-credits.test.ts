import { expect, it } from "vitest";
import { toApiError } from "../../src/kernel/errors.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import { billingOrganization, failure } from "../support/billing.ts";
import { describeMatrix, type MatrixContext } from "../support/matrix.ts";

/** A fresh organization with its owner, and helpers that act as that owner. */
async function organization(ctx: MatrixContext, name: string) {
  const org = await billingOrganization(ctx, name);
  return {
    ...org,
    state: () => org.call("billing.state.get"),
    async subscribe(interval: "monthly" | "annual" = "monthly") {
      await org.complete(
        (await org.call("billing.plan.checkoutChange", { plan: "pro", interval })).paymentUrl,
      );
    },
  };
}

describeMatrix("billing: AI credit tiers, top-ups and past due", (ctx) => {
  it("tier changes need an active Pro subscription", async () => {
    const org = await organization(ctx, "Free tiers");
    for (const operationId of ["billing.aiCreditTier.previewChange", "billing.aiCreditTier.update"]) {
      const body = await failure(org.call(operationId, { aiCreditTier: 4000 }));
      expect(body).toEqual({
        kind: "conflict",
        message: expect.stringContaining("active Pro subscription"),
        suggestion: expect.stringContaining("billing.plan.checkoutChange"),
      });
    }
    expect(await org.account()).toBeUndefined();
    expect(await org.events()).toEqual([]);
  });

  it("tier increases apply at once, prorated, keeping unused credits; decreases wait for renewal", async () => {
    const org = await organization(ctx, "Tiers");
    await org.subscribe("monthly");
    await org.patchAccount({ aiCreditsUsed: 300 });
    expect((await org.state()).meters.ai_credits).toMatchObject({
      included: 1000,
      used: 300,
      remainingIncluded: 700,
    });

    const up = await org.call("billing.aiCreditTier.previewChange", { aiCreditTier: 4000 });
    expect(up.lineItems).toHaveLength(1);
    expect(up.total).toBe(up.lineItems[0].amount);
    expect(up.total).toBeGreaterThan(3400);
    expect(up.total).toBeLessThanOrEqual(3500);
    expect(await org.call("billing.aiCreditTier.update", { aiCreditTier: 4000 })).toEqual({
      paymentUrl: null,
    });
    let state = await org.state();
    expect(state.subscription.aiCreditTier).toBe(4000);
    expect(state.meters.ai_credits).toMatchObject({ included: 4000, used: 300, remainingIncluded: 3700 });
    const changed = (await org.events()).filter((e) => e.type === "ai_credit_tier.changed");
    expect(changed.map((e) => (e.payload as { charged: number }).charged)).toEqual([up.total]);

    const down = await org.call("billing.aiCreditTier.previewChange", { aiCreditTier: 2000 });
    expect(down.total).toBe(0);
    expect(down.lineItems[0].description).toContain("renewal");
    expect(await org.call("billing.aiCreditTier.update", { aiCreditTier: 2000 })).toEqual({
      paymentUrl: null,
    });
    state = await org.state();
    expect(state.subscription.aiCreditTier).toBe(4000);
    expect(await org.account()).toMatchObject({ aiCreditTier: 4000, pendingAiCreditTier: 2000 });

    // Choosing the current tier cancels the scheduled decrease; scheduling it again applies at renewal.
    expect(await org.call("billing.aiCreditTier.update", { aiCreditTier: 4000 })).toEqual({
      paymentUrl: null,
    });
    expect(await org.account()).toMatchObject({ aiCreditTier: 4000, pendingAiCreditTier: null });
    const unchanged = await org.call("billing.aiCreditTier.previewChange", { aiCreditTier: 4000 });
    expect(unchanged.total).toBe(0);
    await org.call("billing.aiCreditTier.update", { aiCreditTier: 2000 });
    const end = Date.now() - 1000;
    await org.patchAccount({ currentPeriodStart: end - 30 * 86_400_000, currentPeriodEnd: end });
    state = await org.state();
    expect(state.subscription.aiCreditTier).toBe(2000);
    expect(state.meters.ai_credits).toMatchObject({ included: 2000, used: 0, remainingIncluded: 2000 });
  });

  it("top-ups need active billing, start hosted checkout, and add prepaid credits once paid", async () => {
    const org = await organization(ctx, "Top-ups");
    for (const operationId of ["billing.usageTopUp.preview", "billing.usageTopUp.checkout"]) {
      const body = await failure(org.call(operationId, { credits: 400 }));
      expect(body).toMatchObject({
        kind: "conflict",
        suggestion: expect.stringContaining("billing.plan.checkoutChange"),
      });
    }
    expect(await failure(org.call("billing.usageTopUp.checkout", { credits: 399 }))).toMatchObject({
      kind: "validation",
      message: expect.stringMatching(/^credits: /),
    });

    await org.subscribe();
    const preview = await org.call("billing.usageTopUp.preview", { credits: 400 });
    expect(preview).toEqual({
      total: 800,
      currency: "usd",
      lineItems: [
        { title: "Prepaid AI credits: 400", description: expect.any(String), amount: 800, quantity: 400 },
      ],
    });
    const { paymentUrl } = await org.call("billing.usageTopUp.checkout", { credits: 1000 });
    expect(paymentUrl).toMatch(/^http:\/\/localhost:8787\/billing\/checkout\/[0-9A-Za-z_-]{21}$/);
    expect((await org.state()).usageBalance.prepaid).toBe(0);
    await org.complete(paymentUrl);
    const state = await org.state();
    expect(state.usageBalance).toEqual({
      included: 0,
      prepaid: 1000,
      used: 0,
      remainingIncluded: 0,
      remainingPrepaid: 1000,
      remaining: 1000,
      settledRemaining: 1000,
      unlimited: false,
    });
    expect(state.meters.ai_credits).toMatchObject({ prepaid: 1000, remainingPrepaid: 1000, remaining: 2000 });
    expect(await failure(org.complete(paymentUrl))).toMatchObject({ kind: "conflict" });
    expect((await org.state()).usageBalance.prepaid).toBe(1000);

    // Hosted checkout sessions expire after 24 hours.
    const stale = (await org.call("billing.usageTopUp.checkout", { credits: 400 })).paymentUrl;
    const sessionId = stale.split("/").pop()!;
    const later = Date.now() + 25 * 60 * 60 * 1000;
    const expired = await failure(
      completeCheckoutSession(ctx.t.platform.db, org.organizationId, sessionId, later),
    );
    expect(expired).toMatchObject({ kind: "conflict", message: expect.stringContaining("expired") });
    expect((await org.state()).usageBalance.prepaid).toBe(1000);
  });

  it("concurrent completions neither lose nor duplicate purchased credits", async () => {
    const org = await organization(ctx, "Concurrent");
    await org.subscribe();
    const urls: string[] = [];
    for (const credits of [400, 500, 600]) {
      urls.push((await org.call("billing.usageTopUp.checkout", { credits })).paymentUrl);
    }
    const outcomes = await Promise.allSettled([...urls, urls[0]!].map((url) => org.complete(url)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    const rejected = outcomes.filter((o) => o.status === "rejected");
    expect(rejected.map((o) => toApiError(o.reason).kind)).toEqual(["conflict"]);
    expect((await org.state()).usageBalance).toMatchObject({ prepaid: 1500, remainingPrepaid: 1500 });
    expect((await org.events()).filter((e) => e.type === "checkout.session.completed")).toHaveLength(4);
  });

  it("past due (billing_grace) rejects plan preview and checkout and leaves state unchanged", async () => {
    const org = await organization(ctx, "Past due");
    await org.subscribe("monthly");
    await org.patchAccount({ status: "billing_grace" });
    const before = await org.state();
    expect(before).toMatchObject({
      status: "billing_grace",
      subscription: { plan: "pro", interval: "monthly" },
    });
    expect(before.meters.ai_credits).toMatchObject({ remainingIncluded: 1000, remaining: 0 });
    const account = await org.account();
    const events = await org.events();

    for (const operationId of ["billing.plan.previewChange", "billing.plan.checkoutChange"]) {
      for (const interval of ["monthly", "annual"]) {
        const body = await failure(org.call(operationId, { plan: "pro", interval, aiCreditTier: 8000 }));
        expect(body).toEqual({
          kind: "conflict",
          message: expect.stringContaining("past due"),
          suggestion: expect.stringContaining("billing.portal.open"),
        });
      }
    }
    for (const [operationId, input] of [
      ["billing.aiCreditTier.previewChange", { aiCreditTier: 8000 }],
      ["billing.aiCreditTier.update", { aiCreditTier: 8000 }],
      ["billing.usageTopUp.preview", { credits: 400 }],
      ["billing.usageTopUp.checkout", { credits: 400 }],
    ] as const) {
      const body = await failure(org.call(operationId, input));
      expect(body, operationId).toMatchObject({
        kind: "conflict",
        suggestion: expect.stringContaining("billing.portal.open"),
      });
    }
    expect(await org.state()).toEqual(before);
    expect(await org.account()).toEqual(account);
    expect(await org.events()).toEqual(events);
    const { url } = await org.call("billing.portal.open");
    expect(url).toContain("/billing/portal?");
  });
});
