import type { BillingAccountRecord } from "../../db/stores/billing.ts";
import type { Stores } from "../../db/stores/index.ts";

/**
 * The organization's billing account as the local provider keeps it (one `billing_accounts` row).
 * Organizations without a row are on the free plan. Times are Unix ms.
 *
 * Periods: `currentPeriodStart`/`currentPeriodEnd` bound the billing period (one month or one year).
 * AI credits reset monthly, in cycles anchored on the period start (calendar months on the free plan);
 * `aiCreditsUsed` counts the allowance spent in the cycle that contains `updatedAt`, so every write
 * first settles the account to the request's time (`settle`) and stamps `updatedAt`.
 */
export type Account = BillingAccountRecord;

export function freeAccount(organizationId: string, now: number): Account {
  return {
    organizationId,
    status: "no_subscription",
    complimentary: false,
    plan: null,
    interval: null,
    aiCreditTier: null,
    pendingInterval: null,
    pendingAiCreditTier: null,
    currentPeriodStart: null,
    currentPeriodEnd: null,
    canceledAtPeriodEnd: false,
    aiCreditsUsed: 0,
    aiCreditsReserved: 0,
    prepaidCredits: 0,
    prepaidUsed: 0,
    billableSiteCapacity: null,
    updatedAt: now,
  };
}

/** `ms` plus `months` calendar months (UTC), clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

export const periodMonths = (interval: string | null): number => (interval === "annual" ? 12 : 1);

/** The monthly AI credit cycle containing `at`: anchored on the period start, else on calendar months. */
export function creditCycle(account: Account, at: number): { start: number; end: number } {
  const anchor = account.currentPeriodStart;
  if (anchor === null) {
    const d = new Date(at);
    return {
      start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
      end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
    };
  }
  if (at < anchor) return { start: anchor, end: addMonths(anchor, 1) };
  const a = new Date(anchor);
  const t = new Date(at);
  let k = (t.getUTCFullYear() - a.getUTCFullYear()) * 12 + t.getUTCMonth() - a.getUTCMonth();
  while (k > 0 && addMonths(anchor, k) > at) k--;
  while (addMonths(anchor, k + 1) <= at) k++;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}

/**
 * The account as of `now`: an active subscription whose period ended renews (the local provider's
 * renewals always succeed), applying the interval and tier changes scheduled for renewal, or ends
 * (back to the free plan, keeping prepaid credits) when cancellation was scheduled; the allowance
 * spent in an earlier credit cycle is reset. Past-due accounts do not renew until they are paid.
 */
export function settle(account: Account, now: number): Account {
  let next = { ...account };
  while (next.status === "active" && next.currentPeriodEnd !== null && now >= next.currentPeriodEnd) {
    const start = next.currentPeriodEnd;
    if (next.canceledAtPeriodEnd) {
      next = {
        ...freeAccount(next.organizationId, start),
        prepaidCredits: next.prepaidCredits,
        prepaidUsed: next.prepaidUsed,
        aiCreditsReserved: next.aiCreditsReserved,
      };
      break;
    }
    const interval = next.pendingInterval ?? next.interval;
    next = {
      ...next,
      interval,
      aiCreditTier: next.pendingAiCreditTier ?? next.aiCreditTier,
      pendingInterval: null,
      pendingAiCreditTier: null,
      currentPeriodStart: start,
      currentPeriodEnd: addMonths(start, periodMonths(interval)),
      aiCreditsUsed: 0,
      updatedAt: start,
    };
  }
  if (creditCycle(next, now).start > next.updatedAt) next = { ...next, aiCreditsUsed: 0, updatedAt: now };
  return next;
}

/** The account as of `now` for reading (nothing is written). */
export async function readAccount(stores: Stores, organizationId: string, now: number): Promise<Account> {
  const row = await stores.billing.getAccount(organizationId);
  return settle(row ?? freeAccount(organizationId, now), now);
}

/**
 * Runs `change` on the account with the organization's billing account row locked for the rest of the
 * transaction, and writes what it returns: concurrent changes never lose an update.
 */
export async function updateAccount<T>(
  stores: Stores,
  organizationId: string,
  now: number,
  change: (account: Account) => Promise<{ account?: Account; result: T }>,
): Promise<T> {
  await stores.billing.lockAccount(freeAccount(organizationId, now));
  const { account, result } = await change(await readAccount(stores, organizationId, now));
  if (account) await stores.billing.putAccount({ ...account, updatedAt: now });
  return result;
}
