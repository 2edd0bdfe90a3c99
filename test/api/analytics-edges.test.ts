// Reports at the edges of periods and roll-up runs, on both databases: a visit crossing an hour (and a local
// midnight) counts once, with all its page views, where its first event is, from raw events and from rollups alike,
// however the roll-up runs were cut, so adjacent periods add up. Past the raw retention, in zones whose offset is
// not whole hours, totals and series agree on where each rolled-up hour counts and the answer says so.
import { beforeAll, describe, expect, it } from "vitest";
import { purgeAnalytics, ROLLUP_LAG_MS, rollUpAnalytics } from "../../src/services/analytics/housekeeping.ts";
import { paidWebsite } from "../support/analytics.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

const DAY = 86_400_000;
/** Visits of Berlin's 2026-11-10 and 11th (UTC+01:00), each from its own address: [path, instant] per page view. */
const BERLIN = [
  // 11:50 to 12:10 local: crosses the UTC hour 11:00, where the first roll-up run below stops.
  [
    ["/a/", "2026-11-10T10:50:00Z"],
    ["/b/", "2026-11-10T11:10:00Z"],
  ],
  // 23:50 on the 10th to 00:10 on the 11th: crosses local midnight.
  [
    ["/a/", "2026-11-10T22:50:00Z"],
    ["/b/", "2026-11-10T23:10:00Z"],
  ],
  [["/c/", "2026-11-11T09:00:00Z"]],
] as const;
/** Zones whose local midnight (in November) falls within a UTC hour, and that hour. */
const FRACTIONAL = [
  { zone: "Asia/Kolkata", hour: 18 }, // +05:30
  { zone: "Asia/Kathmandu", hour: 18 }, // +05:45
  { zone: "Australia/Adelaide", hour: 13 }, // +10:30 in daylight saving (+09:30 otherwise)
];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics period edges [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let berlin: string;
    const fractional = new Map<string, string>();
    beforeAll(async () => {
      const site = await paidWebsite(t, "Edges");
      berlin = site.website.id;
      await t.call("analytics.settings.update", { websiteId: berlin, timeZone: "Europe/Berlin" });
      BERLIN.forEach((visit, i) => {
        for (const [pathname, at] of visit) {
          t.platform.analytics.record(site.hit({ ts: Date.parse(at), pathname, ip: `203.0.113.${i + 1}` }));
        }
      });
      for (const { zone, hour } of FRACTIONAL) {
        const { website, hit } = await paidWebsite(t, zone);
        fractional.set(zone, website.id);
        await t.call("analytics.settings.update", { websiteId: website.id, timeZone: zone });
        // Ten minutes before and after local midnight (the 10th, then the 11th), and the 11th's afternoon.
        const at = (day: number, h: number, m: number) => Date.UTC(2026, 10, day, h, m);
        [at(10, hour, 10), at(10, hour, 40), at(11, hour - 6, 0)].forEach((ts, i) => {
          t.platform.analytics.record(hit({ ts, ip: `198.51.100.${i + 1}` }));
        });
      }
      await t.platform.analytics.flush();
    }, 60_000);

    const aggregate = async (websiteId: string, from: string, to: string) =>
      t.call("analytics.aggregate", { websiteId, from, to, compare: false });
    const berlinReports = async () => {
      const period = { websiteId: berlin, from: "2026-11-10", to: "2026-11-10" };
      const breakdown = async (dimension: "entry_page" | "exit_page" | "page") =>
        (await t.call("analytics.breakdown", { ...period, dimension })).items.map((i) => [i.value, i.visits]);
      return {
        tenth: (await aggregate(berlin, "2026-11-10", "2026-11-10")).metrics,
        eleventh: (await aggregate(berlin, "2026-11-11", "2026-11-11")).metrics,
        both: (await aggregate(berlin, "2026-11-10", "2026-11-11")).metrics,
        hours: (await t.call("analytics.timeseries", { ...period, interval: "hour" })).items
          .filter((i) => i.visits > 0)
          .map((i) => [i.date, i.visits, i.pageviews]),
        entries: await breakdown("entry_page"),
        exits: await breakdown("exit_page"),
        pages: await breakdown("page"),
      };
    };

    let raw: Awaited<ReturnType<typeof berlinReports>>;
    it("counts a visit once where it starts, with all its page views, from raw events and rollups alike", async () => {
      raw = await berlinReports();
      expect(raw.tenth).toMatchObject({
        visitors: 2,
        visits: 2,
        pageviews: 4,
        bounceRate: 0,
        visitDurationSeconds: 1200,
      });
      expect(raw.eleventh).toMatchObject({ visitors: 1, visits: 1, pageviews: 1, bounceRate: 100 });
      expect(raw.both).toMatchObject({ visitors: 3, visits: 3, pageviews: 5 });
      expect(raw.hours).toEqual([
        ["2026-11-10T11:00", 1, 2],
        ["2026-11-10T23:00", 1, 2],
      ]);
      expect(raw.entries).toEqual([["/a/", 2]]);
      expect(raw.exits).toEqual([["/b/", 2]]);
      // A page counts where the visit first views it: the second visit's /b/ on the 11th.
      expect(raw.pages).toEqual([
        ["/a/", 2],
        ["/b/", 1],
      ]);
      // A first roll-up run stops at 11:00 UTC, in the middle of the first visit; the next one rolls up the rest.
      expect(await rollUpAnalytics(t.platform, Date.UTC(2026, 10, 10, 11) + ROLLUP_LAG_MS)).toBeGreaterThan(
        0,
      );
      await rollUpAnalytics(t.platform, Date.now());
      expect(await berlinReports()).toEqual(raw);
    }, 120_000);

    it("past the raw retention, counts each rolled-up hour where its start falls in every report, and says so", async () => {
      const figures = async (zone: string) => {
        const websiteId = fractional.get(zone)!;
        const tenth = await aggregate(websiteId, "2026-11-10", "2026-11-10");
        const eleventh = await aggregate(websiteId, "2026-11-11", "2026-11-11");
        const both = await aggregate(websiteId, "2026-11-10", "2026-11-11");
        const days = await t.call("analytics.timeseries", {
          websiteId,
          from: "2026-11-10",
          to: "2026-11-11",
          interval: "day",
        });
        const pages = await t.call("analytics.breakdown", {
          websiteId,
          from: "2026-11-10",
          to: "2026-11-10",
          dimension: "page",
        });
        return {
          pageviews: [tenth, eleventh, both].map((r) => r.metrics.pageviews),
          days: days.items.map((i) => i.pageviews),
          pages: pages.items.map((i) => i.pageviews),
          complete: [tenth, eleventh, both, days, pages].map((r) => r.complete),
          notice: tenth.notice,
        };
      };
      const now = Date.now();
      await rollUpAnalytics(t.platform, now);
      for (const { zone } of FRACTIONAL) {
        // Raw events kept: exact local days.
        expect(await figures(zone)).toEqual({
          pageviews: [1, 2, 3],
          days: [1, 2],
          pages: [1],
          complete: [true, true, true, true, true],
          notice: null,
        });
      }
      const later = now + 400 * DAY;
      await rollUpAnalytics(t.platform, later);
      await purgeAnalytics(t.platform, later);
      // Whole-hour zones answer from the rollups alone with the same figures.
      expect(await berlinReports()).toEqual(raw);
      for (const { zone } of FRACTIONAL) {
        // The UTC hour holding local midnight starts on the 10th: both of its views count there, in every report,
        // so the days add up to the two days' total; the answer says the figures are shifted.
        const after = await figures(zone);
        expect(after).toMatchObject({
          pageviews: [2, 1, 3],
          days: [2, 1],
          pages: [2],
          complete: [false, false, false, false, false],
        });
        expect(after.notice).toContain(`do not fit the local hours of ${zone}`);
      }
    }, 120_000);
  });
}
