// Raw events go into the database as one JSON array per statement: every column comes back exactly as written, on
// both databases, whatever the text holds (quotes, backslashes, non-ASCII, JSON-looking strings) and for batches
// larger than one statement.
import { beforeAll, describe, expect, it } from "vitest";
import type { NewAnalyticsEvent } from "../../src/db/stores/analytics.ts";
import { newId } from "../../src/kernel/ids.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

const BASE = Date.UTC(2026, 0, 5, 12);

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics event inserts [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let websiteId: string;

    beforeAll(async () => {
      websiteId = (await t.createWebsite("Inserted")).id;
    });

    const event = (i: number, extra: Partial<NewAnalyticsEvent> = {}): NewAnalyticsEvent => ({
      websiteId,
      ts: BASE + i,
      name: "pageview",
      path: `/p/${i}/`,
      visitorId: `v${i % 7}`,
      sessionId: `s${i % 11}`,
      source: "Direct",
      referrer: "",
      utmSource: "",
      utmMedium: "",
      utmCampaign: "",
      utmTerm: "",
      utmContent: "",
      device: "desktop",
      browser: "Chrome",
      os: "Linux",
      country: "",
      engagementMs: 0,
      props: null,
      ...extra,
    });

    it("stores every column as given, odd text and properties included", async () => {
      const rows = [
        event(1, {
          path: `/ü/日本/"quoted"/back\\slash/'single'`,
          source: "Hacker News",
          referrer: "news.ycombinator.com",
          utmSource: '{"not":"json"}',
          utmMedium: "null",
          utmCampaign: "=cmd|' /C calc'!A0",
          utmTerm: "line\nbreak\ttab",
          utmContent: "😀",
          device: "mobile",
          browser: "Mobile Safari",
          os: "iOS",
          country: "DE",
        }),
        event(2, { name: "Signup", props: { plan: "pro", "ö key": 'va"lue\\', empty: "" } }),
        event(3, { name: "engagement", engagementMs: 86_400_000, ts: 4_102_444_800_000 }),
        event(4, { props: {} }),
      ];
      await t.platform.db.transaction((s) => s.analytics.insertEvents(rows));
      const stored = await t.platform.db.read((s) =>
        s.analytics.rawEvents(
          websiteId,
          { from: 0, to: 5_000_000_000_000 },
          { limit: 10, pageviewsOnly: false },
        ),
      );
      expect(stored.map(({ id: _, ...row }) => row)).toEqual([rows[0], rows[1], rows[3], rows[2]]);
      // The database numbers the rows in the order they were written.
      expect(stored[1]!.id).toBe(stored[0]!.id + 1);
    });

    it("writes a batch larger than one statement, all or nothing", async () => {
      const from = BASE + 1_000_000;
      const rows = Array.from({ length: 12_345 }, (_, i) => event(1_000_000 + i));
      await t.platform.db.transaction((s) => s.analytics.insertEvents(rows));
      const stored = await t.platform.db.read((s) =>
        s.analytics.rawEvents(websiteId, { from, to: from + 20_000 }, { limit: 20_000, pageviewsOnly: true }),
      );
      expect(stored.map((r) => r.path)).toEqual(rows.map((r) => r.path));
      expect(stored.map((r) => r.id - stored[0]!.id)).toEqual(rows.map((_, i) => i));
      const { id: _, ...last } = stored[12_344]!;
      expect(last).toEqual(rows[12_344]);

      // A row the database refuses (a null name) in the last statement rolls the whole batch back.
      const again = Array.from({ length: 6_000 }, (_, i) => event(2_000_000 + i));
      again[5_999] = { ...again[5_999]!, name: null as unknown as string };
      await expect(t.platform.db.transaction((s) => s.analytics.insertEvents(again))).rejects.toThrow();
      const after = await t.platform.db.read((s) =>
        s.analytics.rawEvents(
          websiteId,
          { from: BASE + 2_000_000, to: BASE + 2_010_000 },
          { limit: 10, pageviewsOnly: true },
        ),
      );
      expect(after).toEqual([]);
    });

    it("filters with contains case-insensitively beyond ASCII", async () => {
      const from = BASE + 3_000_000;
      const rows = [
        event(3_000_000, { path: "/Über/STRASSE/", utmCampaign: "ÉTÉ 2026" }),
        event(3_000_001, { path: "/über/ÇA/", utmCampaign: "été" }),
        event(3_000_002, { path: "/uber/ca/", utmCampaign: "ete" }),
        event(3_000_003, { path: "/ΣΟΦΙΑ/", utmCampaign: "" }),
      ];
      await t.platform.db.transaction((s) => s.analytics.insertEvents(rows));
      const values = async (dimension: "page" | "utm_campaign", text: string) => {
        const filters = [{ dimension, op: "contains" as const, values: [text] }];
        const found = await t.platform.db.read((s) =>
          s.analytics.breakdown(
            { raw: [{ websiteId, from, to: from + 10, filters }] },
            { dimension: "page" },
            { limit: 10 },
          ),
        );
        return found.map((r) => r.value).sort();
      };
      expect(await values("page", "über")).toEqual(["/Über/STRASSE/", "/über/ÇA/"]);
      expect(await values("page", "ÜBER/ç")).toEqual(["/über/ÇA/"]);
      expect(await values("page", "σοφ")).toEqual(["/ΣΟΦΙΑ/"]);
      expect(await values("page", "UBER")).toEqual(["/uber/ca/"]);
      expect(await values("utm_campaign", "Été")).toEqual(["/Über/STRASSE/", "/über/ÇA/"]);
    });

    it("keeps each visitor's latest visit: a later one stored (another node's) is not replaced by an earlier one", async () => {
      const visitorId = `v_${newId().slice(-8)}`;
      const visit = (sessionId: string, ts: number) => ({
        websiteId,
        visitorId,
        sessionId,
        ts,
        source: "Direct",
        referrer: `odd "text" ${sessionId}`,
        utmSource: "",
        utmMedium: "",
        utmCampaign: "😀",
        utmTerm: "",
        utmContent: "",
      });
      const saved = () => t.platform.db.read((s) => s.analytics.recentPositions([websiteId], [visitorId], 0));
      await t.platform.db.transaction((s) => s.analytics.saveVisits([visit("s1", BASE)]));
      await t.platform.db.transaction((s) => s.analytics.saveVisits([visit("s2", BASE + 10)]));
      await t.platform.db.transaction((s) => s.analytics.saveVisits([visit("s0", BASE + 5)]));
      expect(await saved()).toEqual([visit("s2", BASE + 10)]);
      expect(
        await t.platform.db.transaction((s) => s.analytics.deleteVisitsBefore(BASE + 11)),
      ).toBeGreaterThan(0);
      expect(await saved()).toEqual([]);
    });
  });
}
