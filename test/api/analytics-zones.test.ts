// Time series and periods in the website's time zone on both databases: days of 23 and 25 hours where daylight
// saving starts and ends (Europe/Berlin, America/New_York), a zone half an hour off UTC (Asia/Kolkata); the same
// figures once the hours are rolled up, and what rollups alone can answer after the raw events are deleted.
import { beforeAll, describe, expect, it } from "vitest";
import { purgeAnalytics, rollUpAnalytics } from "../../src/services/analytics/housekeeping.ts";
import { paidWebsite } from "../support/analytics.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

const DAY = 86_400_000;
/** Page views at these instants, each from another visitor. */
const HITS = [
  // Berlin, 2026-03-29: clocks go from 02:00 to 03:00 (01:00 UTC).
  "2026-03-28T23:30:00Z", // 00:30 local
  "2026-03-29T00:30:00Z", // 01:30
  "2026-03-29T01:30:00Z", // 03:30
  "2026-03-29T21:59:00Z", // 23:59
  "2026-03-29T22:30:00Z", // 00:30 on the 30th
  // Berlin, 2026-10-25: clocks go from 03:00 back to 02:00 (01:00 UTC); 02:15 happens twice.
  "2026-10-25T00:15:00Z",
  "2026-10-25T01:15:00Z",
  // New York, 2026-03-08: clocks go from 02:00 to 03:00 (07:00 UTC).
  "2026-03-08T04:59:00Z", // 23:59 on the 7th (EST)
  "2026-03-08T05:00:00Z", // 00:00 on the 8th
  "2026-03-09T03:59:00Z", // 23:59 on the 8th (EDT)
  "2026-03-09T04:00:00Z", // 00:00 on the 9th
  // Kolkata (UTC+05:30): both in the UTC hour 18:00, on two local days.
  "2026-06-10T18:29:00Z", // 23:59 on the 10th
  "2026-06-10T18:30:00Z", // 00:00 on the 11th
];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics time zones [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let websiteId: string;
    beforeAll(async () => {
      const { website, hit } = await paidWebsite(t, "Zoned");
      websiteId = website.id;
      HITS.forEach((at, i) => {
        t.platform.analytics.record(hit({ ts: Date.parse(at), ip: `203.0.113.${i + 1}` }));
      });
      await t.platform.analytics.flush();
    }, 60_000);

    const series = async (timeZone: string, from: string, to: string, interval: "hour" | "day") => {
      await t.call("analytics.settings.update", { websiteId, timeZone });
      const result = await t.call("analytics.timeseries", { websiteId, from, to, interval });
      expect(result.timeZone).toBe(timeZone);
      return result.items;
    };
    const viewed = (items: { date: string; start: string; pageviews: number }[]) =>
      items.filter((i) => i.pageviews > 0).map((i) => [i.date, i.start, i.pageviews]);
    const days = async (timeZone: string, from: string, to: string) =>
      (await series(timeZone, from, to, "day")).map((i) => [i.date, i.pageviews]);

    async function expectLocalFigures(kolkata: [string, number][]) {
      const spring = await series("Europe/Berlin", "2026-03-29", "2026-03-29", "hour");
      expect(spring).toHaveLength(23);
      expect(spring.map((i) => i.date.slice(11))).not.toContain("02:00");
      expect(spring[0]!.start).toBe("2026-03-28T23:00:00.000Z");
      expect(viewed(spring)).toEqual([
        ["2026-03-29T00:00", "2026-03-28T23:00:00.000Z", 1],
        ["2026-03-29T01:00", "2026-03-29T00:00:00.000Z", 1],
        ["2026-03-29T03:00", "2026-03-29T01:00:00.000Z", 1],
        ["2026-03-29T23:00", "2026-03-29T21:00:00.000Z", 1],
      ]);
      expect(await days("Europe/Berlin", "2026-03-28", "2026-03-30")).toEqual([
        ["2026-03-28", 0],
        ["2026-03-29", 4],
        ["2026-03-30", 1],
      ]);
      const autumn = await series("Europe/Berlin", "2026-10-25", "2026-10-25", "hour");
      expect(autumn).toHaveLength(25);
      expect(viewed(autumn)).toEqual([
        ["2026-10-25T02:00", "2026-10-25T00:00:00.000Z", 1],
        ["2026-10-25T02:00", "2026-10-25T01:00:00.000Z", 1],
      ]);
      expect(await days("America/New_York", "2026-03-07", "2026-03-09")).toEqual([
        ["2026-03-07", 1],
        ["2026-03-08", 2],
        ["2026-03-09", 1],
      ]);
      expect(await series("America/New_York", "2026-03-08", "2026-03-08", "hour")).toHaveLength(23);
      expect(await days("Asia/Kolkata", "2026-06-10", "2026-06-11")).toEqual(kolkata);
      // A period's totals count its local days: the 29th in Berlin holds four of the five March views.
      await t.call("analytics.settings.update", { websiteId, timeZone: "Europe/Berlin" });
      const march = await t.call("analytics.aggregate", {
        websiteId,
        from: "2026-03-29",
        to: "2026-03-29",
        compare: false,
      });
      expect(march.metrics.pageviews).toBe(4);
    }

    it("buckets hours and days by local time, daylight saving included, from raw events and from rollups", async () => {
      const exact: [string, number][] = [
        ["2026-06-10", 1],
        ["2026-06-11", 1],
      ];
      await expectLocalFigures(exact);
      // Rolled up (UTC hours): whole-hour zones read the rollups; Kolkata reads the raw events, still kept.
      const now = Date.now();
      expect(await rollUpAnalytics(t.platform, now)).toBeGreaterThan(0);
      await expectLocalFigures(exact);
      // Past the raw retention only rollups are left: whole-hour zones answer the same; in Kolkata both views
      // were in the UTC hour 18:00, which lies mostly on the 10th (the documented precision).
      const later = now + 400 * DAY;
      await rollUpAnalytics(t.platform, later);
      expect(await purgeAnalytics(t.platform, later)).toBe(HITS.length);
      await expectLocalFigures([
        ["2026-06-10", 2],
        ["2026-06-11", 0],
      ]);
      // A filtered report rollups cannot answer needs raw events: it says that they no longer cover its period.
      const march = { websiteId, from: "2026-03-01", to: "2026-03-31", compare: false };
      const filtered = await t.call("analytics.aggregate", { ...march, filters: ["page~/"] });
      expect(filtered).toMatchObject({ complete: false, metrics: { pageviews: 0 } });
      expect(filtered.notice).toContain("raw events");
      // One value of a rolled dimension answers from that value's rollups.
      expect(await t.call("analytics.aggregate", { ...march, filters: ["page==/"] })).toMatchObject({
        complete: true,
        notice: null,
        metrics: { pageviews: 9 },
      });
      expect(await t.call("analytics.aggregate", march)).toMatchObject({
        complete: true,
        notice: null,
        metrics: { pageviews: 9 },
      });
    }, 300_000);
  });
}
