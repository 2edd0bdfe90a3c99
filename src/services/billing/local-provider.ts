import { newId } from "../../kernel/ids.ts";
import { type Account, readAccount, updateAccount } from "./account.ts";
import { aiCreditTierChange, type ChangeOutcome, planChange } from "./changes.ts";
import { startCheckout } from "./checkout.ts";
import { projection, topUpItems } from "./prices.ts";
import type { BillingCall, BillingProvider } from "./provider.ts";
import { assertActiveBilling, assertReturnUrl } from "./rules.ts";
import { countBillableSites, projectState } from "./state.ts";

type PaymentResult = { paymentUrl: string | null };

export interface LocalBillingOptions {
  /** Dashboard host: hosted checkout and the billing portal are pages there. */
  appUrl: string;
}

/**
 * The embedded deployment's billing provider: no payment service, everything recorded in the database.
 * Hosted checkout and the portal are dashboard pages (`/billing/checkout/<id>`, `/billing/portal`);
 * changes that need no payment step apply at once and record a billing event. Prices: ./prices.ts.
 */
export function localBillingProvider({ appUrl }: LocalBillingOptions): BillingProvider {
  const defaultReturn = `${appUrl}/billing`;

  const record = (call: BillingCall, type: string, payload: Record<string, unknown>) =>
    call.stores.billing.recordEvent({
      id: newId(),
      organizationId: call.organizationId,
      type,
      payload,
      createdAt: call.now,
    });

  /** Applies a change outcome with no payment step: writes the account and records what was charged. */
  const applied = async (
    call: BillingCall,
    type: string,
    outcome: ChangeOutcome,
  ): Promise<{ account?: Account; result: PaymentResult }> => {
    if (!outcome.next) return { result: { paymentUrl: null } };
    const { total, currency, lineItems } = outcome.projection;
    await record(call, type, { charged: total, currency, lineItems });
    return { account: outcome.next, result: { paymentUrl: null } };
  };

  return {
    async state(call) {
      const account = await readAccount(call.stores, call.organizationId, call.now);
      const grants = await call.stores.billing.listGrants(call.organizationId);
      const sites = await countBillableSites(call.stores, call.organizationId);
      return projectState(account, grants, sites, call.now);
    },

    async growSiteCapacity(call, capacity) {
      await updateAccount(call.stores, call.organizationId, call.now, async (account) => {
        const from = account.billableSiteCapacity ?? 0;
        if (capacity <= from) return { result: undefined };
        await record(call, "sites.capacity.grown", { from, to: capacity });
        return { account: { ...account, billableSiteCapacity: capacity }, result: undefined };
      });
    },

    async previewPlanChange(call, change) {
      assertReturnUrl("successUrl", change.successUrl);
      const account = await readAccount(call.stores, call.organizationId, call.now);
      const sites = await countBillableSites(call.stores, call.organizationId);
      return planChange(account, change, sites, call.now).projection;
    },

    async checkoutPlanChange(call, change) {
      assertReturnUrl("successUrl", change.successUrl);
      const sites = await countBillableSites(call.stores, call.organizationId);
      return updateAccount(call.stores, call.organizationId, call.now, async (account) => {
        const outcome = planChange(account, change, sites, call.now);
        if (!outcome.checkout) return applied(call, "plan.changed", outcome);
        const { plan, interval, aiCreditTier } = change;
        const result = await startCheckout(call, appUrl, {
          purpose: { type: "subscription", plan, interval, aiCreditTier },
          projection: outcome.projection,
          successUrl: change.successUrl ?? defaultReturn,
        });
        return { result };
      });
    },

    async previewAiCreditTier(call, change) {
      assertReturnUrl("successUrl", change.successUrl);
      const account = await readAccount(call.stores, call.organizationId, call.now);
      return aiCreditTierChange(account, change.aiCreditTier, call.now).projection;
    },

    async updateAiCreditTier(call, change) {
      assertReturnUrl("successUrl", change.successUrl);
      return updateAccount(call.stores, call.organizationId, call.now, (account) =>
        applied(call, "ai_credit_tier.changed", aiCreditTierChange(account, change.aiCreditTier, call.now)),
      );
    },

    async openPortal(call, returnUrl) {
      assertReturnUrl("returnUrl", returnUrl);
      const sessionId = newId();
      const target = returnUrl ?? defaultReturn;
      await record(call, "portal.session.created", { sessionId, returnUrl: target });
      const url = new URL(`${appUrl}/billing/portal`);
      url.searchParams.set("organizationId", call.organizationId);
      url.searchParams.set("session", sessionId);
      url.searchParams.set("returnUrl", target);
      return { url: url.toString() };
    },

    async previewUsageTopUp(call, topUp) {
      assertReturnUrl("successUrl", topUp.successUrl);
      assertActiveBilling(await readAccount(call.stores, call.organizationId, call.now));
      return projection(topUpItems(topUp.credits));
    },

    async checkoutUsageTopUp(call, topUp) {
      assertReturnUrl("successUrl", topUp.successUrl);
      assertActiveBilling(await readAccount(call.stores, call.organizationId, call.now));
      return startCheckout(call, appUrl, {
        purpose: { type: "usage_top_up", credits: topUp.credits },
        projection: projection(topUpItems(topUp.credits)),
        successUrl: topUp.successUrl ?? defaultReturn,
      });
    },
  };
}
