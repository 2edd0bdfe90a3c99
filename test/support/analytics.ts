// Helpers of the analytics tests: a website whose organization's plan may read analytics, and hits as hosting
// hands them to the collector.
import type { Hit } from "../../src/services/analytics/collector.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import type { TestPlatform } from "./platform.ts";

const DAY = 86_400_000;

/**
 * A time near `now` such that [time - before, time + after] lies in one UTC day. Visitor ids change at UTC midnight,
 * so hits a test expects to share a visitor must not straddle it (a test run at 23:59 or 00:00 would).
 */
export function inOneUtcDay(before: number, after: number, now = Date.now()): number {
  const dayStart = now - (now % DAY);
  if (now - before < dayStart) return dayStart + before;
  if (now + after >= dayStart + DAY) return dayStart + DAY - 1 - after;
  return now;
}

/**
 * Now, once [now - before, now + after] lies in one UTC day: a test whose hits of "today" reach `before` ms back and
 * whose reports of "today" run for up to `after` ms more waits (at most before + after) when started near midnight.
 */
export async function roomInUtcDay(before: number, after: number): Promise<number> {
  const sinceMidnight = Date.now() % DAY;
  const wait =
    sinceMidnight < before
      ? before - sinceMidnight
      : sinceMidnight + after >= DAY
        ? DAY - sinceMidnight + before
        : 0;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return Date.now();
}

/** A browser's user agent (the collector leaves bots out). */
export const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** A new website on the Pro plan (billing capability analytics_view; `paid: false` leaves it free), and a maker of its hits. */
export async function paidWebsite(t: TestPlatform, name: string, { paid = true } = {}) {
  const website = await t.createWebsite(`${name} ${Math.random().toString(36).slice(2, 8)}`);
  const organizationId = website.organizationId;
  if (paid && !(await t.call("billing.state.get", { organizationId })).capabilities.analytics_view) {
    const { paymentUrl } = await t.call("billing.plan.checkoutChange", {
      organizationId,
      plan: "pro",
      interval: "monthly",
    });
    await completeCheckoutSession(t.platform.db, organizationId, paymentUrl!.split("/").pop()!);
  }
  const host = `${website.slug}.localhost`;
  const hit = (h: Partial<Hit> & { ts: number }): Hit => ({
    websiteId: website.id,
    host,
    name: "pageview",
    pathname: "/",
    search: "",
    ip: "198.51.100.7",
    userAgent: FIREFOX,
    referer: null,
    ...h,
  });
  return { website, host, hit };
}
