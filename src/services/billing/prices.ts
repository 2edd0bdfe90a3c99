import type { PriceProjection } from "./provider.ts";

/**
 * The local provider's price table. Amounts are in the currency's minor unit (US cents), as payment
 * providers report them; a line item's `amount` is the line's total (unit price × quantity).
 * Annual prices are ten times the monthly ones (two months free).
 */
export const CURRENCY = "usd";

export type Interval = "monthly" | "annual";

/** The AI credit tiers (monthly allowance of a Pro subscription). */
export const aiCreditTiers = [
  1000, 2000, 4000, 8000, 12000, 20000, 30000, 40000, 50000, 75000, 100000,
] as const;
export type AiCreditTier = (typeof aiCreditTiers)[number];
export const DEFAULT_AI_CREDIT_TIER: AiCreditTier = 1000;

/** Monthly AI credit allowance of the free plan (no subscription). */
export const FREE_MONTHLY_AI_CREDITS = 100;
/** Websites with custom domains: none on the free plan; Pro includes one, more are billed per site. */
export const FREE_SITE_CAPACITY = 0;
export const PRO_INCLUDED_SITES = 1;
/** Smallest top-up, in credits (the contract's minimum). */
export const MIN_TOP_UP_CREDITS = 400;

const MONTHS_PER_ANNUAL_PRICE = 10;

/** Monthly prices in cents. */
export const monthlyPrices = {
  pro: 2900,
  extraSite: 1000,
  aiCreditTier: {
    1000: 0,
    2000: 1500,
    4000: 3500,
    8000: 6500,
    12000: 9500,
    20000: 15000,
    30000: 22000,
    40000: 28000,
    50000: 34000,
    75000: 49000,
    100000: 64000,
  } satisfies Record<AiCreditTier, number>,
} as const;

/** Prepaid top-up credits: 2 cents per credit (400 credits = $8.00). */
export const TOP_UP_CENTS_PER_CREDIT = 2;

export type LineItem = PriceProjection["lineItems"][number];

export const periodPrice = (monthly: number, interval: Interval): number =>
  interval === "annual" ? monthly * MONTHS_PER_ANNUAL_PRICE : monthly;

export const tierPrice = (tier: number, interval: Interval): number =>
  periodPrice(monthlyPrices.aiCreditTier[tier as AiCreditTier] ?? 0, interval);

export const credits = (n: number): string => n.toLocaleString("en-US");

export const money = (cents: number): string =>
  `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A projection whose total is the sum of its line items' amounts. */
export function projection(lineItems: LineItem[]): PriceProjection {
  const total = lineItems.reduce((sum, item) => sum + (item.amount ?? 0), 0);
  return { total, currency: CURRENCY, lineItems };
}

/** What one period of Pro costs: the plan, the AI credit tier and websites beyond the included one. */
export function subscriptionItems(interval: Interval, tier: number, siteCapacity: number): LineItem[] {
  const per = interval === "annual" ? "year" : "month";
  const items: LineItem[] = [
    {
      title: `Pro plan (${interval})`,
      description: `Billed per ${per}; includes ${PRO_INCLUDED_SITES} website with a custom domain.`,
      amount: periodPrice(monthlyPrices.pro, interval),
      quantity: 1,
    },
    {
      title: `AI credits: ${credits(tier)} per month`,
      description: `Monthly AI credit allowance, billed per ${per}.`,
      amount: tierPrice(tier, interval),
      quantity: 1,
    },
  ];
  const extraSites = siteCapacity - PRO_INCLUDED_SITES;
  if (extraSites > 0) {
    items.push({
      title: "Additional websites with custom domains",
      description: `${money(periodPrice(monthlyPrices.extraSite, interval))} per website per ${per}, from the websites that have custom domains.`,
      amount: extraSites * periodPrice(monthlyPrices.extraSite, interval),
      quantity: extraSites,
    });
  }
  return items;
}

/** The price of one period of Pro at `interval`, `tier` and `siteCapacity`. */
export const subscriptionTotal = (interval: Interval, tier: number, siteCapacity: number): number =>
  projection(subscriptionItems(interval, tier, siteCapacity)).total ?? 0;

/** A prepaid top-up of `count` credits. */
export function topUpItems(count: number): LineItem[] {
  return [
    {
      title: `Prepaid AI credits: ${credits(count)}`,
      description: `${TOP_UP_CENTS_PER_CREDIT} cents per credit; never expires; spent after the monthly allowance and support grants.`,
      amount: count * TOP_UP_CENTS_PER_CREDIT,
      quantity: count,
    },
  ];
}
