import type { CreditGrantRecord } from "../../db/stores/billing.ts";
import type { Stores } from "../../db/stores/index.ts";
import { type Account, creditCycle } from "./account.ts";
import {
  DEFAULT_AI_CREDIT_TIER,
  FREE_MONTHLY_AI_CREDITS,
  FREE_SITE_CAPACITY,
  type Interval,
  PRO_INCLUDED_SITES,
} from "./prices.ts";
import type { BillingState, Meter } from "./provider.ts";

/** Websites of the organization with at least one custom domain. */
export function countBillableSites(stores: Stores, organizationId: string): Promise<number> {
  return stores.domains.countBillableSites(organizationId);
}

/** Site capacity a new or changed Pro subscription gets: computed from custom-domain sites, never chosen. */
export const siteCapacityFor = (billableSiteCount: number): number =>
  Math.max(PRO_INCLUDED_SITES, billableSiteCount);

/** Whether the account has a paid (or complimentary) plan in force, past due or not. */
export const hasPlan = (account: Account): boolean => account.status !== "no_subscription" && !!account.plan;

/** Support grants that can still be spent, in spending order: soonest expiry first, then never-expiring. */
export function spendableGrants(grants: readonly CreditGrantRecord[], now: number): CreditGrantRecord[] {
  return grants
    .filter((grant) => grant.expiresAt === null || grant.expiresAt > now)
    .sort(
      (a, b) =>
        (a.expiresAt ?? Number.POSITIVE_INFINITY) - (b.expiresAt ?? Number.POSITIVE_INFINITY) ||
        a.createdAt - b.createdAt,
    );
}

/** Monthly allowance: the free plan's, the subscription's tier, or unlimited (enterprise without a tier). */
function allowance(account: Account): { included: number; unlimited: boolean } {
  if (!hasPlan(account)) return { included: FREE_MONTHLY_AI_CREDITS, unlimited: false };
  if (account.aiCreditTier !== null) return { included: account.aiCreditTier, unlimited: false };
  if (account.plan === "enterprise") return { included: 0, unlimited: true };
  return { included: DEFAULT_AI_CREDIT_TIER, unlimited: false };
}

/**
 * Amounts of the `ai_credits` meter. Spending order: the monthly allowance, then support grants, then
 * prepaid credits. `settledRemaining` counts everything spendable after settled consumption;
 * `remaining` also subtracts temporary reservations and is 0 while billing is past due (metered
 * consumption is blocked).
 */
function aiCreditsMeter(account: Account, grantCredits: number, now: number): Meter {
  const { included, unlimited } = allowance(account);
  const remainingIncluded = Math.max(0, included - account.aiCreditsUsed);
  const remainingPrepaid = Math.max(0, account.prepaidCredits - account.prepaidUsed);
  const settledRemaining = remainingIncluded + grantCredits + remainingPrepaid;
  const blocked = account.status === "billing_grace";
  return {
    included,
    prepaid: account.prepaidCredits,
    used: account.aiCreditsUsed,
    remainingIncluded,
    remainingPrepaid,
    remaining: blocked ? 0 : Math.max(0, settledRemaining - account.aiCreditsReserved),
    settledRemaining,
    unlimited,
    nextResetAt: creditCycle(account, now).end,
  };
}

/** The prepaid top-up balance: purchased credits, never reset, never expiring. */
function usageBalanceMeter(account: Account): Meter {
  const remainingPrepaid = Math.max(0, account.prepaidCredits - account.prepaidUsed);
  return {
    included: 0,
    prepaid: account.prepaidCredits,
    used: account.prepaidUsed,
    remainingIncluded: 0,
    remainingPrepaid,
    remaining: account.status === "billing_grace" ? 0 : remainingPrepaid,
    settledRemaining: remainingPrepaid,
    unlimited: false,
  };
}

/** The billing state object of the API contract, with exactly its fields. */
export function projectState(
  account: Account,
  grants: readonly CreditGrantRecord[],
  billableSiteCount: number,
  now: number,
): BillingState {
  const spendable = spendableGrants(grants, now);
  const grantCredits = spendable.reduce((sum, grant) => sum + Math.max(0, grant.remaining), 0);
  const paid = hasPlan(account);
  const state: BillingState = {
    organizationId: account.organizationId,
    status: account.status as BillingState["status"],
    complimentary: account.complimentary,
    capabilities: { analytics_view: paid },
    meters: { ai_credits: aiCreditsMeter(account, grantCredits, now) },
    creditGrants: spendable.map((grant) => ({
      id: grant.id,
      credits: grant.credits,
      remaining: grant.remaining,
      ...(grant.expiresAt !== null ? { expiresAt: grant.expiresAt } : {}),
    })),
    billableSiteCapacity: paid
      ? (account.billableSiteCapacity ?? siteCapacityFor(billableSiteCount))
      : FREE_SITE_CAPACITY,
    billableSiteCount,
  };
  if (paid) {
    state.subscription = {
      plan: account.plan as "pro" | "enterprise",
      ...(account.interval ? { interval: account.interval as Interval } : {}),
      ...(account.aiCreditTier !== null ? { aiCreditTier: account.aiCreditTier } : {}),
      ...(account.currentPeriodEnd !== null ? { currentPeriodEnd: account.currentPeriodEnd } : {}),
      canceledAtPeriodEnd: account.canceledAtPeriodEnd,
    };
  }
  if (paid || account.prepaidCredits > 0) state.usageBalance = usageBalanceMeter(account);
  return state;
}
