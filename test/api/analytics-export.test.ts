// CSV exports say whether they cover their whole period, as reports do: over MCP in `complete` and `notice`, over
// REST in the Sitewright-Complete and Sitewright-Notice headers (the CSV itself stays plain RFC 4180). Raw page
// views and filtered breakdowns end where raw events were deleted; unfiltered breakdowns read rollups, kept for good.
import { describe, expect, it } from "vitest";
import { purgeAnalytics, rollUpAnalytics } from "../../src/services/analytics/housekeeping.ts";
import { paidWebsite } from "../support/analytics.ts";
import { dialects } from "../support/databases.ts";
import { useListeningPlatform } from "../support/platform.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics export coverage [${dialect.name}]`, () => {
    const served = useListeningPlatform(dialect.name);
    const t = served.t;

    const rest = (path: string) =>
      fetch(`${served.url}/v1${path}`, {
        headers: { authorization: `Bearer ${t.adminKey.plaintextKey}` },
      });

    it("says over MCP and REST when raw page views of the period were deleted", async () => {
      const { website, hit } = await paidWebsite(t, "Exported");
      const start = Math.floor(Date.now() / DAY) * DAY - 20 * DAY;
      const date = new Date(start).toISOString().slice(0, 10);
      for (let i = 0; i < 3; i++) {
        t.platform.analytics.record(hit({ ts: start + 10 * HOUR + i * 60_000, pathname: `/p${i}/` }));
      }
      await t.platform.analytics.flush();
      const period = { websiteId: website.id, from: date, to: date };
      const base = `/websites/${website.id}/analytics/export?from=${date}&to=${date}`;

      expect(await t.call("analytics.export", { ...period, kind: "pageviews" })).toMatchObject({
        rows: 3,
        complete: true,
        notice: null,
      });
      const kept = await rest(`${base}&kind=pageviews`);
      expect(kept.status).toBe(200);
      expect(kept.headers.get("sitewright-complete")).toBe("true");
      expect(kept.headers.get("sitewright-notice")).toBeNull();
      expect((await kept.text()).trim().split("\r\n")).toHaveLength(1 + 3);

      // Past the raw retention only the rollups are left.
      const later = Date.now() + 400 * DAY;
      await rollUpAnalytics(t.platform, later);
      expect(await purgeAnalytics(t.platform, later)).toBe(3);

      const views = await t.call("analytics.export", { ...period, kind: "pageviews" });
      expect(views).toMatchObject({ rows: 0, complete: false });
      expect(views.notice).toContain("Raw page views before");
      const filtered = await t.call("analytics.export", {
        ...period,
        kind: "breakdown",
        dimension: "page",
        filters: ["page~/p"],
      });
      expect(filtered).toMatchObject({ rows: 0, complete: false });
      expect(filtered.notice).toContain("raw events");
      expect(
        await t.call("analytics.export", { ...period, kind: "breakdown", dimension: "page" }),
      ).toMatchObject({ rows: 3, complete: true, notice: null });

      const gone = await rest(`${base}&kind=pageviews`);
      expect(gone.status).toBe(200);
      expect(gone.headers.get("sitewright-complete")).toBe("false");
      expect(gone.headers.get("sitewright-notice")).toBe(views.notice);
      expect((await gone.text()).trim().split("\r\n")).toHaveLength(1);
      const rolled = await rest(`${base}&kind=breakdown&dimension=page`);
      expect(rolled.headers.get("sitewright-complete")).toBe("true");
      expect((await rolled.text()).trim().split("\r\n")).toHaveLength(1 + 3);
    }, 120_000);
  });
}
