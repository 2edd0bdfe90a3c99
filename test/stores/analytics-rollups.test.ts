// Hourly rollups answer long reports with the figures raw events give, on both databases; housekeeping rolls up
// only finished hours, runs idempotently, and deletes raw events past their retention once rolled up, after
// which the rollups still answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hit } from "../../src/services/analytics/collector.ts";
import { purgeAnalytics, ROLLUP_LAG_MS, rollUpAnalytics } from "../../src/services/analytics/housekeeping.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import { dialects } from "../support/databases.ts";
import { createTestPlatform, type TestPlatform } from "../support/platform.ts";

const DAY = 86_400_000;
const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
];
const REFERRERS = [null, "https://www.google.com/", "https://news.ycombinator.com/", "https://t.co/x"];
const PAGES = ["/", "/about/", "/pricing/", "/blog/a/"];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics rollups [${dialect.name}]`, () => {
    let t: TestPlatform;
    let websiteId: string;
    let host: string;
    // Three whole UTC days, ending five days ago.
    const firstDay = Math.floor(Date.now() / DAY) * DAY - 8 * DAY;
    const from = new Date(firstDay).toISOString().slice(0, 10);
    const to = new Date(firstDay + 2 * DAY).toISOString().slice(0, 10);

    beforeAll(async () => {
      t = await createTestPlatform(dialect.name);
      const website = await t.createWebsite("Rolled up");
      websiteId = website.id;
      host = `${website.slug}.localhost`;
      const organizationId = website.organizationId;
      const { paymentUrl } = await t.call("billing.plan.checkoutChange", {
        organizationId,
        plan: "pro",
        interval: "monthly",
      });
      await completeCheckoutSession(t.platform.db, organizationId, paymentUrl!.split("/").pop()!);
      // Visits spread over the three days and their hours: 1 to 4 page views each, some with a custom event.
      let n = 0;
      for (let day = 0; day < 3; day++) {
        for (let visitor = 0; visitor < 40; visitor++) {
          n++;
          const start = firstDay + day * DAY + ((visitor * 7919) % (DAY - 3 * 3_600_000));
          const base: Omit<Hit, "ts" | "pathname"> = {
            websiteId,
            host,
            name: "pageview",
            search: n % 5 === 0 ? "?utm_source=mail&utm_campaign=spring" : "",
            ip: `203.0.113.${visitor}`,
            userAgent: AGENTS[visitor % AGENTS.length]!,
            referer: REFERRERS[visitor % REFERRERS.length]!,
          };
          for (let view = 0; view <= visitor % 4; view++) {
            t.platform.analytics.record({
              ...base,
              ts: start + view * 95_000,
              pathname: PAGES[(visitor + view) % PAGES.length]!,
              referer: view === 0 ? base.referer : `http://${host}/`,
            });
          }
          if (visitor % 6 === 0) {
            t.platform.analytics.record({
              ...base,
              ts: start + 30_000,
              pathname: "/",
              name: "signup",
              props: { plan: "pro" },
            });
          }
        }
      }
      await t.platform.analytics.flush();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
    });

    const report = async () => ({
      aggregate: (await t.call("analytics.aggregate", { websiteId, from, to, compare: false })).metrics,
      series: (await t.call("analytics.timeseries", { websiteId, from, to, interval: "day" })).items,
      sources: (await t.call("analytics.breakdown", { websiteId, from, to, dimension: "source", limit: 100 }))
        .items,
      pages: (await t.call("analytics.breakdown", { websiteId, from, to, dimension: "page", limit: 100 }))
        .items,
      entries: (
        await t.call("analytics.breakdown", { websiteId, from, to, dimension: "entry_page", limit: 100 })
      ).items,
      events: (await t.call("analytics.breakdown", { websiteId, from, to, dimension: "event", limit: 100 }))
        .items,
      campaigns: (
        await t.call("analytics.breakdown", { websiteId, from, to, dimension: "utm_campaign", limit: 100 })
      ).items,
    });

    it("answers from rollups with the figures of the raw events, then keeps them past the raw retention", async () => {
      const raw = await report();
      expect(raw.aggregate.visitors).toBe(120);
      expect(raw.aggregate.pageviews).toBe(300);
      expect(raw.aggregate.events).toBe(21);

      const now = Date.now();
      expect(await rollUpAnalytics(t.platform, now)).toBeGreaterThanOrEqual(8 * 24 - 3);
      const rolledTo = await t.platform.db.read((s) => s.analytics.rolledTo());
      expect(rolledTo).toBeLessThanOrEqual(now - ROLLUP_LAG_MS);
      expect(rolledTo % 3_600_000).toBe(0);
      // A second run finds nothing new to roll up (the last unfinished hour aside).
      expect(await rollUpAnalytics(t.platform, now)).toBe(0);
      const rollupRows = await t.platform.db.read((s) =>
        s.analytics.series(
          { raw: [], rollups: { websiteId, from: firstDay, to: firstDay + 3 * DAY } },
          [{ from: firstDay, offset: 0 }],
          1e15,
        ),
      );
      expect(rollupRows[0]).toMatchObject({ visitors: 120, pageviews: 300 });
      expect(await report()).toEqual(raw);

      // Thirteen months on, the raw events are gone and the rollups still answer.
      const later = now + 400 * DAY;
      await rollUpAnalytics(t.platform, later);
      expect(await purgeAnalytics(t.platform, later)).toBe(321);
      const left = await t.platform.db.read((s) =>
        s.analytics.rawEvents(websiteId, { from: 0, to: later }, { limit: 10, pageviewsOnly: false }),
      );
      expect(left).toEqual([]);
      expect(await report()).toEqual(raw);
      // Rolling up 400 days is hundreds of statements: a generous bound for a loaded machine.
    }, 300_000);
  });
}
