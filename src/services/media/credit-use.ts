import type { BillingEventRecord } from "../../db/stores/billing.ts";
import type { Stores } from "../../db/stores/index.ts";
import { creditCycle, readAccount } from "../billing/account.ts";

/** One settled generation as its `ai_credits.spent` event recorded it (older events lack website and prompt). */
export interface GenerationUse {
  at: number;
  websiteId: string | null;
  /** The website's name now; null when it was deleted (or the event predates the website being recorded). */
  websiteName: string | null;
  prompt: string;
  images: number;
  credits: number;
  fromIncluded: number;
  fromGrants: number;
  fromPrepaid: number;
}

/** AI credit use of an organization: this credit cycle's totals and the most recent generations. */
export interface CreditUseReport {
  period: { start: number; end: number };
  totals: Omit<GenerationUse, "at" | "websiteId" | "websiteName" | "prompt"> & { generations: number };
  recent: GenerationUse[];
}

interface SpentPayload {
  amount?: number;
  fromIncluded?: number;
  fromGrants?: { credits: number }[];
  fromPrepaid?: number;
  websiteId?: string;
  prompt?: string;
  images?: number;
}

const SPENT = "ai_credits.spent";

function useOf(event: BillingEventRecord): Omit<GenerationUse, "websiteName"> {
  const p = event.payload as SpentPayload;
  const credits = p.amount ?? 0;
  return {
    at: event.createdAt,
    websiteId: p.websiteId ?? null,
    prompt: p.prompt ?? "",
    images: p.images ?? credits,
    credits,
    fromIncluded: p.fromIncluded ?? 0,
    fromGrants: (p.fromGrants ?? []).reduce((sum, grant) => sum + grant.credits, 0),
    fromPrepaid: p.fromPrepaid ?? 0,
  };
}

/**
 * Reads what the organization's generations spent from its `ai_credits.spent` billing events: totals over the
 * current monthly credit cycle (the one the meter's allowance resets on) and the `limit` most recent ones.
 */
export async function readCreditUse(
  stores: Stores,
  organizationId: string,
  now: number,
  limit: number,
): Promise<CreditUseReport> {
  const period = creditCycle(await readAccount(stores, organizationId, now), now);
  const inPeriod = await stores.billing.listEventsOfType(organizationId, SPENT, { since: period.start });
  const totals = { generations: 0, images: 0, credits: 0, fromIncluded: 0, fromGrants: 0, fromPrepaid: 0 };
  for (const use of inPeriod.map(useOf)) {
    totals.generations++;
    totals.images += use.images;
    totals.credits += use.credits;
    totals.fromIncluded += use.fromIncluded;
    totals.fromGrants += use.fromGrants;
    totals.fromPrepaid += use.fromPrepaid;
  }
  const latest = (await stores.billing.listEventsOfType(organizationId, SPENT, { limit })).map(useOf);
  const names = new Map<string, string | null>();
  for (const { websiteId } of latest) {
    if (websiteId === null || names.has(websiteId)) continue;
    const website = await stores.websites.get(websiteId);
    names.set(websiteId, website?.organizationId === organizationId ? website.name : null);
  }
  return {
    period,
    totals,
    recent: latest.map((use) => ({
      ...use,
      websiteName: use.websiteId === null ? null : (names.get(use.websiteId) ?? null),
    })),
  };
}
