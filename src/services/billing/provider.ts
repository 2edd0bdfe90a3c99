import type { Stores } from "../../db/stores/index.ts";

/** The billing state object of the API contract (response of `GET /billing/state`). */
export interface BillingState {
  organizationId: string;
  status: "no_subscription" | "active" | "billing_grace";
  complimentary: boolean;
  subscription?: {
    plan: "pro" | "enterprise";
    interval?: "monthly" | "annual";
    aiCreditTier?: number;
    currentPeriodEnd?: number;
    canceledAtPeriodEnd: boolean;
  };
  capabilities: { analytics_view: boolean };
  meters: { ai_credits: Meter };
  usageBalance?: Meter;
  creditGrants: { id: string; credits: number; remaining: number; expiresAt?: number }[];
  billableSiteCapacity?: number;
  billableSiteCount?: number;
}

export interface Meter {
  included: number;
  prepaid: number;
  used: number;
  remainingIncluded: number;
  remainingPrepaid: number;
  remaining: number;
  settledRemaining: number;
  unlimited: boolean;
  nextResetAt?: number;
}

/** The price projection of the API contract (response of the preview operations); amounts in the currency's minor unit (cents). */
export interface PriceProjection {
  total: number | null;
  currency: string | null;
  lineItems: { title?: string; description?: string; amount?: number; quantity?: number }[];
}

export interface PlanChange {
  plan: "pro";
  interval: "monthly" | "annual";
  aiCreditTier: number;
  successUrl?: string;
}

export interface TierChange {
  aiCreditTier: number;
  successUrl?: string;
}

export interface TopUp {
  credits: number;
  successUrl?: string;
}

export interface BillingCall {
  stores: Stores;
  organizationId: string;
  now: number;
}

/**
 * A billing provider. The local provider (./local-provider.ts) records everything in the database; a Stripe
 * adapter implements the same interface against Stripe's API. Mutations run inside the operation's transaction
 * (`call.stores`), so what a provider records commits or rolls back with the operation. Rules of the contract (billing_grace blocks plan changes, tier
 * changes need an active Pro subscription, top-ups need active billing) are enforced by the provider.
 */
export interface BillingProvider {
  state(call: BillingCall): Promise<BillingState>;
  previewPlanChange(call: BillingCall, change: PlanChange): Promise<PriceProjection>;
  checkoutPlanChange(call: BillingCall, change: PlanChange): Promise<{ paymentUrl: string | null }>;
  previewAiCreditTier(call: BillingCall, change: TierChange): Promise<PriceProjection>;
  updateAiCreditTier(call: BillingCall, change: TierChange): Promise<{ paymentUrl: string | null }>;
  openPortal(call: BillingCall, returnUrl?: string): Promise<{ url: string }>;
  previewUsageTopUp(call: BillingCall, topUp: TopUp): Promise<PriceProjection>;
  checkoutUsageTopUp(call: BillingCall, topUp: TopUp): Promise<{ paymentUrl: string | null }>;
  /**
   * A website gets its first custom domain while an active Pro subscription's capacity is full: the capacity grows
   * to `capacity` (computed from the custom-domain sites, never chosen), each site beyond the included one billed at
   * the plan's per-site price (a payment service prorates it onto the subscription). Runs in the caller's
   * transaction, with the account row locked.
   */
  growSiteCapacity(call: BillingCall, capacity: number): Promise<void>;
}
