import { type Account, addMonths } from "./account.ts";
import {
  credits,
  DEFAULT_AI_CREDIT_TIER,
  day,
  type Interval,
  type LineItem,
  projection,
  subscriptionItems,
  subscriptionTotal,
  tierPrice,
} from "./prices.ts";
import type { PlanChange, PriceProjection } from "./provider.ts";
import { assertActivePro, assertPlanChangeAllowed } from "./rules.ts";
import { hasPlan, siteCapacityFor } from "./state.ts";

/**
 * What a plan or tier change does, computed once for both the preview and the change itself, so a
 * preview always shows exactly what the change then charges. `checkout`: no subscription yet, so
 * hosted checkout collects the first payment. `next`: the account after a change that applies (or is
 * scheduled) with no payment step; absent when nothing changes.
 */
export interface ChangeOutcome {
  projection: PriceProjection;
  checkout?: true;
  next?: Account;
}

/** `amount` for the part of the billing period still ahead (rounded to cents). */
function prorate(amount: number, account: Account, now: number): number {
  const { currentPeriodStart: start, currentPeriodEnd: end } = account;
  if (start === null || end === null || end <= start) return amount;
  return Math.round((amount * Math.max(0, end - now)) / (end - start));
}

const currentTier = (account: Account): number => account.aiCreditTier ?? DEFAULT_AI_CREDIT_TIER;
const renewal = (account: Account): string =>
  account.currentPeriodEnd !== null ? `at renewal on ${day(account.currentPeriodEnd)}` : "at renewal";

/** A tier change within the current period: increases now (prorated, keeping what is left), decreases at renewal. */
function tierStep(account: Account, tier: number, now: number): { items: LineItem[]; next: Account } {
  const current = currentTier(account);
  const interval = (account.interval ?? "monthly") as Interval;
  if (tier > current) {
    return {
      items: [
        {
          title: `AI credits: ${credits(current)} → ${credits(tier)} per month`,
          description: `Applies now, prorated for the rest of the billing period; this month's unused credits are kept and ${credits(tier - current)} more are added.`,
          amount: prorate(tierPrice(tier, interval) - tierPrice(current, interval), account, now),
          quantity: 1,
        },
      ],
      next: { ...account, aiCreditTier: tier, pendingAiCreditTier: null },
    };
  }
  if (tier < current) {
    return {
      items: [
        {
          title: `AI credits: ${credits(current)} → ${credits(tier)} per month`,
          description: `Takes effect ${renewal(account)}; nothing is charged now and this period's allowance stays.`,
        },
      ],
      next: { ...account, pendingAiCreditTier: tier },
    };
  }
  if (account.pendingAiCreditTier !== null) {
    return {
      items: [
        {
          title: `Keep ${credits(current)} AI credits per month`,
          description: `Cancels the change to ${credits(account.pendingAiCreditTier)} scheduled ${renewal(account)}.`,
        },
      ],
      next: { ...account, pendingAiCreditTier: null },
    };
  }
  return { items: [], next: account };
}

/** Monthly to annual applies now: a new annual period starts, the rest of the monthly one is credited. */
function switchToAnnual(account: Account, change: PlanChange, capacity: number, now: number): ChangeOutcome {
  const unused = prorate(
    subscriptionTotal("monthly", currentTier(account), account.billableSiteCapacity ?? capacity),
    account,
    now,
  );
  const items = subscriptionItems("annual", change.aiCreditTier, capacity);
  items.push({
    title: "Unused time on Pro (monthly)",
    description:
      account.currentPeriodEnd !== null
        ? `Credit for the rest of the monthly period that would have ended on ${day(account.currentPeriodEnd)}.`
        : "Credit for the rest of the monthly period.",
    amount: -unused,
    quantity: 1,
  });
  const next: Account = {
    ...account,
    interval: "annual",
    aiCreditTier: change.aiCreditTier,
    pendingInterval: null,
    pendingAiCreditTier: null,
    currentPeriodStart: now,
    currentPeriodEnd: addMonths(now, 12),
    aiCreditsUsed: 0,
    billableSiteCapacity: capacity,
  };
  return { projection: projection(items), next };
}

const unchanged = (description: string): ChangeOutcome => ({
  projection: projection([{ title: "No change", description, amount: 0, quantity: 1 }]),
});

/** `billing.plan.*`: subscribe (hosted checkout), switch interval, and set the tier in one change. */
export function planChange(
  account: Account,
  change: PlanChange,
  billableSiteCount: number,
  now: number,
): ChangeOutcome {
  assertPlanChangeAllowed(account);
  const capacity = siteCapacityFor(billableSiteCount);
  if (!hasPlan(account)) {
    return {
      checkout: true,
      projection: projection(subscriptionItems(change.interval, change.aiCreditTier, capacity)),
    };
  }
  const interval = account.interval as Interval;
  if (interval === "monthly" && change.interval === "annual") {
    return switchToAnnual(account, change, capacity, now);
  }
  const items: LineItem[] = [];
  let next = account;
  if (interval === "annual" && change.interval === "monthly") {
    if (account.pendingInterval !== "monthly") {
      items.push({
        title: "Switch to monthly billing",
        description: `Takes effect ${renewal(account)}; nothing is charged now.`,
      });
      next = { ...next, pendingInterval: "monthly" };
    }
  } else if (account.pendingInterval !== null) {
    items.push({
      title: `Keep ${interval} billing`,
      description: `Cancels the switch to ${account.pendingInterval} billing scheduled ${renewal(account)}.`,
    });
    next = { ...next, pendingInterval: null };
  }
  const tier = tierStep(next, change.aiCreditTier, now);
  items.push(...tier.items);
  if (items.length === 0) {
    return unchanged(
      `Already on Pro (${interval}) with ${credits(currentTier(account))} AI credits per month; nothing is charged.`,
    );
  }
  return { projection: projection(items), next: tier.next };
}

/** `billing.aiCreditTier.*`: change the monthly allowance of an active Pro subscription. */
export function aiCreditTierChange(account: Account, tier: number, now: number): ChangeOutcome {
  assertActivePro(account);
  const step = tierStep(account, tier, now);
  if (step.items.length === 0) {
    return unchanged(`Already on ${credits(tier)} AI credits per month; nothing is charged.`);
  }
  return { projection: projection(step.items), next: step.next };
}
