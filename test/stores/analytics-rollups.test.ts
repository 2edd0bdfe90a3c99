// Hourly and daily rollups answer long reports with the figures raw events give, on both databases and in zones
// with whole-hour, fractional and daylight-saving offsets; housekeeping rolls up only finished hours, runs
// idempotently, and deletes raw events past their retention once rolled up, after which the rollups still answer.
import { beforeAll, describe, expect, it } from "vitest";
import type { Dimension } from "../../src/db/stores/analytics-sql.ts";
import type { Hit } from "../../src/services/analytics/collector.ts";
import { purgeAnalytics, ROLLUP_LAG_MS, rollUpAnalytics } from "../../src/services/analytics/housekeeping.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

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
    const t = useTestPlatform(dialect.name);
    let websiteId: string;
    let host: string;
    // Ten whole UTC days from 2026-10-24: Europe/Berlin leaves daylight saving on the 25th, New York on 1 November.
    const DAYS = 10;
    const firstDay = Date.UTC(2026, 9, 24);
    const from = new Date(firstDay).toISOString().slice(0, 10);
    const to = new Date(firstDay + (DAYS - 1) * DAY).toISOString().slice(0, 10);
    /** Zones and local periods whose edges cut through the traffic: whole-hour, DST and fractional offsets. */
    const periods = [
      { zone: "Europe/Berlin", from, to },
      { zone: "America/New_York", from: "2026-10-26", to: "2026-11-02" },
      { zone: "Asia/Kolkata", from: "2026-10-24", to: "2026-10-30" },
      // London leaves daylight saving on the 25th: from then on its local days are UTC days (daily rows).
      { zone: "Europe/London", from: "2026-10-24", to: "2026-11-02" },
      { zone: "UTC", from, to },
    ];

    beforeAll(async () => {
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
      // Visits spread over the days and their hours 0 to 17 (UTC; not 18, which holds midnight in Asia/Kolkata), each
      // within one hour: 1 to 4 page views, some with a custom event. New York's local days and weeks start at 04:00
      // or 05:00 UTC, so a series counting a UTC day's row in one local day would show.
      let n = 0;
      for (let day = 0; day < DAYS; day++) {
        for (let visitor = 0; visitor < 40; visitor++) {
          n++;
          const start = firstDay + day * DAY + ((visitor * 5) % 18) * 3_600_000 + visitor * 7919;
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

    const reportOf = async (p: { from: string; to: string }) => {
      const period = { websiteId, from: p.from, to: p.to };
      const breakdown = async (dimension: Dimension) =>
        (await t.call("analytics.breakdown", { ...period, dimension, limit: 100 })).items;
      return {
        aggregate: (await t.call("analytics.aggregate", { ...period, compare: false })).metrics,
        series: (await t.call("analytics.timeseries", { ...period, interval: "day" })).items,
        weeks: (await t.call("analytics.timeseries", { ...period, interval: "week" })).items,
        months: (await t.call("analytics.timeseries", { ...period, interval: "month" })).items,
        sources: await breakdown("source"),
        pages: await breakdown("page"),
        entries: await breakdown("entry_page"),
        exits: await breakdown("exit_page"),
        events: await breakdown("event"),
        campaigns: await breakdown("utm_campaign"),
        // Filtered by one value of a rolled dimension: from that value's rollups too, past the raw retention.
        about: await t.call("analytics.aggregate", { ...period, compare: false, filters: ["page==/about/"] }),
        google: (
          await t.call("analytics.timeseries", { ...period, interval: "day", filters: ["source==Google"] })
        ).items,
      };
    };
    /** Every period's reports, each in its zone (UTC last, the zone left set). */
    const reports = async () => {
      const all: Record<string, unknown>[] = [];
      for (const p of periods) {
        await t.call("analytics.settings.update", { websiteId, timeZone: p.zone });
        all.push({ zone: p.zone, ...(await reportOf(p)) });
      }
      return all;
    };
    const totals = (rollups: { from: number; to: number; days?: { from: number; to: number }[] }) =>
      t.platform.db.read((s) =>
        s.analytics.series({ raw: [], rollups: { websiteId, ...rollups } }, [{ from: 0, offset: 0 }], 1e15),
      );

    it("answers from rollups with the figures of the raw events, then keeps them past the raw retention", async () => {
      const raw = await reports();
      const whole = (raw.at(-1) as { aggregate: { visitors: number; pageviews: number; events: number } })
        .aggregate;
      expect(whole).toMatchObject({ visitors: 40 * DAYS, pageviews: 100 * DAYS, events: 7 * DAYS });
      expect(
        (raw.at(-1) as { about: { complete: boolean; metrics: { pageviews: number } } }).about,
      ).toMatchObject({
        complete: true,
        metrics: { pageviews: 20 * DAYS },
      });

      const now = Date.now();
      expect(await rollUpAnalytics(t.platform, now)).toBeGreaterThanOrEqual(
        Math.floor((now - ROLLUP_LAG_MS - firstDay) / 3_600_000),
      );
      const rolledTo = await t.platform.db.read((s) => s.analytics.rolledTo());
      expect(rolledTo).toBeLessThanOrEqual(now - ROLLUP_LAG_MS);
      expect(rolledTo % 3_600_000).toBe(0);
      // A second run finds nothing new to roll up (the last unfinished hour aside).
      expect(await rollUpAnalytics(t.platform, now)).toBe(0);
      // The hourly rows alone, and the daily rows alone, hold the totals.
      const range = { from: firstDay, to: firstDay + DAYS * DAY };
      const expected = { visitors: 40 * DAYS, pageviews: 100 * DAYS, events: 7 * DAYS };
      expect((await totals(range))[0]).toMatchObject(expected);
      expect((await totals({ ...range, days: [range] }))[0]).toMatchObject(expected);
      // Days from daily rows and the hours between and around them from hourly rows add up like hours alone.
      const mixed = { from: firstDay + 5 * 3_600_000, to: firstDay + 6 * DAY + 7 * 3_600_000 };
      const days = [
        { from: firstDay + DAY, to: firstDay + 3 * DAY },
        { from: firstDay + 4 * DAY, to: firstDay + 5 * DAY },
      ];
      expect(await totals({ ...mixed, days })).toEqual(await totals(mixed));
      expect(await reports()).toEqual(raw);

      // Thirteen months on, the raw events are gone and the rollups still answer.
      const later = now + 400 * DAY;
      await rollUpAnalytics(t.platform, later);
      expect(await purgeAnalytics(t.platform, later)).toBe(107 * DAYS);
      const left = await t.platform.db.read((s) =>
        s.analytics.rawEvents(websiteId, { from: 0, to: later }, { limit: 10, pageviewsOnly: false }),
      );
      expect(left).toEqual([]);
      // Zones whose offset is not whole hours: past the raw events a time series counts each rollup hour in the
      // local bucket its start falls in (docs/analytics.md), so only their totals and breakdowns must match (no
      // traffic here is in the UTC hour of local midnight), and the answers say they are not exact.
      const after = await reports();
      const fractional = (r: Record<string, unknown>) => r.zone === "Asia/Kolkata";
      expect(after.filter((r) => !fractional(r))).toEqual(raw.filter((r) => !fractional(r)));
      const { series: _s, weeks: _w, months: _m, google: _g, about, ...kept } = raw.find(fractional)!;
      const shifted = after.find(fractional)!;
      expect(shifted).toMatchObject(kept);
      expect(shifted.about).toMatchObject({
        metrics: (about as { metrics: object }).metrics,
        complete: false,
      });
      expect((shifted.about as { notice: string }).notice).toContain(
        "do not fit the local hours of Asia/Kolkata",
      );
    }, 300_000);
  });
}
