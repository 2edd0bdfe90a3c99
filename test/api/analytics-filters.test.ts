// Filtered reports on both databases: every dimension with every operator (is, is not, contains), and two filters
// combined, on the aggregate, the time series and a breakdown, against figures computed here from the stored raw
// events. Countries come from a GeoIP database built in the test.
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalyticsEventRecord } from "../../src/db/stores/analytics.ts";
import { dimensions, type Filter } from "../../src/db/stores/analytics-sql.ts";
import { FIREFOX, paidWebsite } from "../support/analytics.ts";
import { dialects } from "../support/databases.ts";
import { buildMmdb } from "../support/mmdb.ts";
import { useTestPlatform } from "../support/platform.ts";

const HOUR = 3_600_000;
const AGENTS = [
  FIREFOX,
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
];
const REFERRERS = [
  null,
  "https://www.google.com/",
  "https://news.ycombinator.com/item?id=1",
  "https://blog.example.org/",
];
const PAGES = ["/", "/about/", "/pricing/", "/blog/Hello-World/"];
const COUNTRIES = buildMmdb({
  "203.0.113.0/26": { country: { iso_code: "DE" } },
  "203.0.113.64/26": { country: { iso_code: "FR" } },
  "203.0.113.128/26": { country: { iso_code: "IN" } },
});

type Row = AnalyticsEventRecord;
const CUSTOM = (r: Row) => r.name !== "pageview" && r.name !== "engagement";

/** The figures the filters should give, from the raw rows: each event by its own value; entry/exit from its visit. */
function expected(rows: readonly Row[], filters: readonly Filter[]) {
  const views = rows
    .filter((r) => r.name === "pageview")
    .sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1));
  const entry = new Map<string, string>();
  const exit = new Map<string, string>();
  for (const r of views) {
    if (!entry.has(r.sessionId)) entry.set(r.sessionId, r.path);
    exit.set(r.sessionId, r.path);
  }
  const valueIn = (r: Row, dimension: Filter["dimension"]): string =>
    ({
      page: r.path,
      entry_page: entry.get(r.sessionId) ?? "",
      exit_page: exit.get(r.sessionId) ?? "",
      source: r.source,
      referrer: r.referrer,
      utm_source: r.utmSource,
      utm_medium: r.utmMedium,
      utm_campaign: r.utmCampaign,
      utm_term: r.utmTerm,
      utm_content: r.utmContent,
      device: r.device,
      browser: r.browser,
      os: r.os,
      country: r.country,
      event: r.name,
    })[dimension];
  const kept = rows.filter((r) =>
    filters.every((f) => {
      const v = valueIn(r, f.dimension);
      if (f.op === "contains") return f.values.some((text) => v.toLowerCase().includes(text.toLowerCase()));
      return f.op === "is" ? f.values.includes(v) : !f.values.includes(v);
    }),
  );
  return {
    visitors: new Set(kept.map((r) => r.visitorId)).size,
    visits: new Set(kept.map((r) => r.sessionId)).size,
    pageviews: kept.filter((r) => r.name === "pageview").length,
    events: kept.filter(CUSTOM).length,
    valueIn,
  };
}

const written = (f: Filter) =>
  `${f.dimension}${f.op === "is" ? "==" : f.op === "is_not" ? "!=" : "~"}${f.values.join("|")}`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics filters [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name, { analytics: { geoip: COUNTRIES }, analyticsThread: true });
    let websiteId: string;
    let rows: Row[];
    beforeAll(async () => {
      const { website, hit } = await paidWebsite(t, "Filtered");
      websiteId = website.id;
      const start = Date.now() - 2 * 24 * HOUR;
      for (let visitor = 0; visitor < 24; visitor++) {
        const ts = start + visitor * HOUR;
        const base = {
          ip: `203.0.113.${visitor * 9}`,
          userAgent: AGENTS[visitor % AGENTS.length]!,
          search:
            visitor % 3 === 0
              ? `?utm_source=news-${visitor % 2}&utm_medium=mail-${visitor % 4}&utm_campaign=Spring-${visitor % 2}&utm_term=t${visitor % 4}&utm_content=c${visitor % 5}`
              : "",
        };
        for (let view = 0; view <= visitor % 3; view++) {
          t.platform.analytics.record(
            hit({
              ...base,
              ts: ts + view * 60_000,
              pathname: PAGES[(visitor + view) % PAGES.length]!,
              referer:
                view === 0 ? REFERRERS[visitor % REFERRERS.length]! : `http://${website.slug}.localhost/`,
            }),
          );
        }
        if (visitor % 4 === 1) {
          t.platform.analytics.record(
            hit({
              ...base,
              ts: ts + 30_000,
              pathname: "/pricing/",
              name: visitor % 8 === 1 ? "Signup" : "Download",
              props: { plan: "pro" },
            }),
          );
        }
      }
      await t.platform.analytics.flush();
      rows = await t.platform.db.read((s) =>
        s.analytics.rawEvents(
          websiteId,
          { from: 0, to: Date.now() + 1 },
          { limit: 1000, pageviewsOnly: false },
        ),
      );
    }, 60_000);

    const reports = async (filters: readonly Filter[]) => {
      const input = { websiteId, filters: filters.map(written) };
      const [aggregate, series, pages] = await Promise.all([
        t.call("analytics.aggregate", { ...input, compare: false }),
        t.call("analytics.timeseries", { ...input, interval: "day" }),
        t.call("analytics.breakdown", { ...input, dimension: "page", limit: 100 }),
      ]);
      expect([aggregate.complete, series.complete, pages.complete]).toEqual([true, true, true]);
      const sum = (key: "pageviews" | "events") => series.items.reduce((n, i) => n + i[key], 0);
      return {
        aggregate: aggregate.metrics,
        series: { pageviews: sum("pageviews"), events: sum("events") },
        pages: pages.items.reduce((n, i) => n + i.pageviews, 0),
      };
    };

    it("has data for every dimension: countries from GeoIP, sources, campaigns, devices, events", () => {
      const all = expected(rows, []);
      expect(all.pageviews).toBe(48);
      expect(all.events).toBe(6);
      for (const dimension of dimensions) {
        const values = new Set(rows.map((r) => all.valueIn(r, dimension)).filter(Boolean));
        expect(values.size, dimension).toBeGreaterThanOrEqual(2);
      }
      expect(new Set(rows.map((r) => r.country))).toEqual(new Set(["DE", "FR", "IN", ""]));
    });

    it("narrows the aggregate, the time series and breakdowns on every dimension with is, is not and contains", async () => {
      const all = expected(rows, []);
      for (const dimension of dimensions) {
        // The most frequent non-empty value, and a piece of it in other letter case.
        const counts = new Map<string, number>();
        for (const r of rows) {
          const v = all.valueIn(r, dimension);
          if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        const value = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
        const piece = (value.length > 3 ? value.slice(1, -1) : value).toUpperCase();
        const cases: Filter[] = [
          { dimension, op: "is", values: [value] },
          { dimension, op: "is_not", values: [value] },
          { dimension, op: "contains", values: [piece] },
          { dimension, op: "is", values: [value, "no such value"] },
        ];
        for (const filter of cases) {
          const want = expected(rows, [filter]);
          const got = await reports([filter]);
          const label = written(filter);
          expect(got.aggregate, label).toMatchObject({
            visitors: want.visitors,
            visits: want.visits,
            pageviews: want.pageviews,
            events: want.events,
          });
          expect(got.series, label).toEqual({ pageviews: want.pageviews, events: want.events });
          expect(got.pages, label).toBe(want.pageviews);
        }
      }
    }, 120_000);

    it("combines filters with and", async () => {
      const filters: Filter[] = [
        { dimension: "device", op: "is_not", values: ["mobile"] },
        { dimension: "country", op: "is", values: ["DE", "FR"] },
        { dimension: "page", op: "contains", values: ["O"] },
      ];
      const want = expected(rows, filters);
      expect(want.pageviews).toBeGreaterThan(0);
      expect(want.pageviews).toBeLessThan(expected(rows, filters.slice(0, 2)).pageviews);
      const got = await reports(filters);
      expect(got.aggregate).toMatchObject({
        visitors: want.visitors,
        visits: want.visits,
        pageviews: want.pageviews,
      });
      expect(got.pages).toBe(want.pageviews);
    });
  });
}
