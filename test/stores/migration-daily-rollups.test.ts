// The migration that added daily analytics rollups, applied to a database holding hourly rollups: every whole UTC
// day already rolled up gets daily rows with the sums of its hours, the day under way none; housekeeping adds that
// day's rows once it rolls up its last hour.
import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { type Dialect, dialects } from "../support/databases.ts";
import { migrationFixtures } from "../support/migrated-database.ts";
import { organization, rawQuery, website } from "./fixtures.ts";

const DAILY: Record<Dialect, string> = {
  sqlite: "0030_analytics_daily_rollups",
  pg: "0032_analytics_daily_rollups",
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const { emptyDatabase, migratedBefore } = migrationFixtures();

for (const d of dialects) {
  describe.skipIf(!d.available)(`migration to daily analytics rollups [${d.name}]`, () => {
    let opened: Database | undefined;
    afterEach(async () => {
      await opened?.close();
      opened = undefined;
    });

    it("backfills the daily rows of every whole day rolled up, and housekeeping the rest", async () => {
      const url = await emptyDatabase(d.name);
      const old = await migratedBefore(d.name, url, DAILY[d.name]);
      const org = organization();
      const site = website(org.id);
      await old.organizations.insert(org);
      await old.websites.insert(site);
      const day0 = Date.UTC(2026, 0, 10);
      const day1 = day0 + DAY;
      // [dimension, hour, value, page views]: visitors = page views - 1, visits 1, bounces 0, duration 1 s a view.
      const hours: [string, number, string, number][] = [
        ["", day0 + HOUR, "", 3],
        ["", day0 + 23 * HOUR, "", 4],
        ["page", day0 + HOUR, "/a", 2],
        ["page", day0 + 5 * HOUR, "/a", 5],
        ["page", day0 + 5 * HOUR, "/b", 7],
        ["", day1 + 2 * HOUR, "", 6],
        ["page", day1 + 2 * HOUR, "/a", 6],
      ];
      const q = d.name === "pg" ? (n: number) => `$${n}` : () => "?";
      for (const [dimension, hour, value, pageviews] of hours) {
        await rawQuery(
          d.name,
          url,
          `insert into analytics_rollups (website_id, dimension, hour, value, pageviews, events, visitors, visits, bounces, duration_ms) values (${[1, 2, 3, 4, 5].map(q).join(", ")}, 0, ${q(6)}, 1, 0, ${q(7)})`,
          [site.id, dimension, hour, value, pageviews, pageviews - 1, pageviews * 1000],
        );
      }
      await rawQuery(
        d.name,
        url,
        `insert into analytics_rollup_progress (id, rolled_to) values ('hourly', ${day1 + 10 * HOUR})`,
      );

      opened = await openDatabase({ url });
      const daily = async () =>
        (
          await rawQuery(
            d.name,
            url,
            "select dimension, day, value, pageviews, events, visitors, visits, bounces, duration_ms from analytics_daily_rollups order by day, dimension, value",
          )
        ).map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [k, k === "dimension" || k === "value" ? v : Number(v)]),
          ),
        );
      const row = (dimension: string, day: number, value: string, pageviews: number, visits: number) => ({
        dimension,
        day,
        value,
        pageviews,
        events: 0,
        visitors: pageviews - visits,
        visits,
        bounces: 0,
        duration_ms: pageviews * 1000,
      });
      const firstDay = [
        row("", day0, "", 7, 2),
        row("page", day0, "/a", 7, 2),
        row("page", day0, "/b", 7, 1),
      ];
      expect(await daily()).toEqual(firstDay);

      // Rolling up the rest of the second day (no raw events) writes its daily rows from its hourly ones.
      expect(await opened.transaction((s) => s.analytics.rollUp(day1 + 10 * HOUR, day1 + DAY, day1))).toBe(
        true,
      );
      expect(await daily()).toEqual([...firstDay, row("", day1, "", 6, 1), row("page", day1, "/a", 6, 1)]);
    });
  });
}
