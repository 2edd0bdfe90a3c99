// The roll-up reads a range's events once for every dimension: its hourly and daily rows are exactly those of the
// reference below (one statement per dimension over the raw events, as the roll-up was first written), on both
// databases, for visits and visitors spanning hours, ties on the time, custom and engagement events, several
// websites and runs that stop mid-day.
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewAnalyticsEvent } from "../../src/db/stores/analytics.ts";
import { dimensions } from "../../src/db/stores/analytics-sql.ts";
import { newId } from "../../src/kernel/ids.ts";
import { dialects } from "../support/databases.ts";
import { useTestPlatform } from "../support/platform.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIRST_DAY = Date.UTC(2026, 2, 9);
/** Each UTC day is rolled up in three runs: hours [0, 5), [5, 13) and [13, 24). */
const STEPS = [0, 5, 13, 24];

/**
 * The reference: one statement per dimension ('' the totals), each reading the raw events of the whole UTC day itself
 * (so a visit crossing the run's end counts with its later events).
 */
function referenceSql(dimension: string, from: number, to: number, since: number): string {
  const ends = (order: string) =>
    `(select session_id, path from (select session_id, path, row_number() over (partition by session_id order by ${order}) as rn from analytics_events where ts >= ${since} and ts < ${since + DAY} and name = 'pageview') e where rn = 1)`;
  const value =
    dimension === ""
      ? "''"
      : dimension === "entry_page"
        ? "coalesce(en.path, '')"
        : dimension === "exit_page"
          ? "coalesce(ex.path, '')"
          : `ev.${dimension === "page" ? "path" : dimension === "event" ? "name" : dimension}`;
  const join =
    dimension === "entry_page"
      ? ` left join ${ends("ts asc, id asc")} en on en.session_id = ev.session_id`
      : dimension === "exit_page"
        ? ` left join ${ends("ts desc, id desc")} ex on ex.session_id = ev.session_id`
        : "";
  const custom = dimension === "event" ? " and ev.name <> 'pageview' and ev.name <> 'engagement'" : "";
  const hour = (column: string) => `(${column} / ${HOUR}) * ${HOUR}`;
  return `with s as (select ev.website_id as website_id, ${value} as v, ev.session_id as session_id, ev.visitor_id as visitor_id, sum(case when ev.name = 'pageview' then 1 else 0 end) as pv, sum(case when ev.name <> 'pageview' and ev.name <> 'engagement' then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1 from analytics_events ev${join} where ev.ts >= ${since} and ev.ts < ${since + DAY}${custom} group by ev.website_id, 2, ev.session_id, ev.visitor_id),
firsts as (select website_id, v, visitor_id, min(t0) as f from s group by website_id, v, visitor_id)
insert into analytics_rollups (website_id, dimension, hour, value, pageviews, events, visitors, visits, bounces, duration_ms)
select website_id, '${dimension}', hour, v, sum(pv), sum(evs), sum(visitors), sum(visits), sum(bounces), sum(duration) from (
select website_id, v, ${hour("t0")} as hour, pv, evs, 0 as visitors, 1 as visits, case when pv <= 1 then 1 else 0 end as bounces, t1 - t0 as duration from s where t0 >= ${from} and t0 < ${to}
union all
select website_id, v, ${hour("f")} as hour, 0, 0, 1, 0, 0, 0 from firsts where f >= ${from} and f < ${to}
) x where true group by website_id, hour, v`;
}

const referenceDaily = (day: number) =>
  `insert into analytics_daily_rollups (website_id, dimension, day, value, pageviews, events, visitors, visits, bounces, duration_ms) select website_id, dimension, ${day}, value, sum(pageviews), sum(events), sum(visitors), sum(visits), sum(bounces), sum(duration_ms) from analytics_rollups where hour >= ${day} and hour < ${day + DAY} group by website_id, dimension, value`;

/** A connection of the test's own to the platform's database. */
async function connect(url: string) {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      rows: async (text: string) => (await client.query(text)).rows as Record<string, unknown>[],
      run: async (text: string) => void (await client.query(text)),
      close: () => client.end(),
    };
  }
  const sqlite = new BetterSqlite3(url);
  sqlite.pragma("busy_timeout = 5000");
  return {
    rows: async (text: string) => sqlite.prepare(text).all() as Record<string, unknown>[],
    run: async (text: string) => void sqlite.exec(text),
    close: async () => sqlite.close(),
  };
}

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`analytics roll-up in one pass [${dialect.name}]`, () => {
    const t = useTestPlatform(dialect.name);
    let db: Awaited<ReturnType<typeof connect>>;

    beforeAll(async () => {
      db = await connect(t.databaseUrl);
    });
    afterAll(() => db?.close());

    const table = async (name: string, time: string) =>
      // PostgreSQL returns bigint columns as strings.
      (await db.rows(`select * from ${name} order by website_id, dimension, ${time}, value`)).map((row) => ({
        ...row,
        [time]: Number(row[time]),
        duration_ms: Number(row.duration_ms),
      }));
    const rollups = async () => ({
      hourly: await table("analytics_rollups", "hour"),
      daily: await table("analytics_daily_rollups", "day"),
    });

    it("writes the rows of one statement per dimension", async () => {
      const next = random(7);
      const tail = newId().slice(-6);
      const websites = [(await t.createWebsite(`One ${tail}`)).id, (await t.createWebsite(`Two ${tail}`)).id];
      const events: NewAnalyticsEvent[] = [];
      for (let day = 0; day < 2; day++) {
        for (let visitor = 0; visitor < 30; visitor++) {
          const websiteId = websites[visitor % 2]!;
          // One to three visits per visitor, each one to five events a few minutes apart, some over an hour's end.
          for (let visit = 0; visit <= visitor % 3; visit++) {
            let ts = FIRST_DAY + day * DAY + next(20) * HOUR + (visit * 3 + next(60)) * 60_000;
            const sessionId = `s${day}-${visitor}-${visit}-${tail}`;
            const source = ["Direct", "Google", "Twitter"][next(3)]!;
            for (let n = 0; n <= next(5); n++) {
              const roll = next(10);
              events.push({
                websiteId,
                ts,
                name: roll < 6 ? "pageview" : roll < 8 ? "engagement" : ["signup", "download"][roll % 2]!,
                path: ["/", "/about/", "/pricing/", "/blog/a/"][next(4)]!,
                visitorId: `v${day}-${visitor}-${tail}`,
                sessionId,
                source,
                referrer: source === "Direct" ? "" : `${source.toLowerCase()}.example`,
                utmSource: visit === 1 ? "mail" : "",
                utmMedium: "",
                utmCampaign: visit === 1 ? "spring" : "",
                utmTerm: "",
                utmContent: "",
                device: ["desktop", "mobile"][next(2)]!,
                browser: ["Chrome", "Firefox"][visitor % 2]!,
                os: "Linux",
                country: ["DE", "FR", ""][next(3)]!,
                engagementMs: roll >= 6 && roll < 8 ? 1_000 * next(90) : 0,
                props: null,
              });
              // Some events share their time with the one before (entry and exit pages then go by id).
              ts += next(2) === 0 ? 0 : next(25) * 60_000;
            }
          }
        }
      }
      await t.platform.db.transaction((s) => s.analytics.insertEvents(events));

      const runs: { from: number; to: number; dayStart: number }[] = [];
      for (let day = 0; day < 2; day++) {
        const dayStart = FIRST_DAY + day * DAY;
        for (let i = 1; i < STEPS.length; i++) {
          runs.push({ from: dayStart + STEPS[i - 1]! * HOUR, to: dayStart + STEPS[i]! * HOUR, dayStart });
        }
      }
      for (const { from, to, dayStart } of runs) {
        expect(await t.platform.db.transaction((s) => s.analytics.rollUp(from, to, dayStart))).toBe(true);
      }
      const actual = await rollups();

      await db.run("delete from analytics_daily_rollups");
      await db.run("delete from analytics_rollups");
      for (const { from, to, dayStart } of runs) {
        for (const dimension of ["", ...dimensions])
          await db.run(referenceSql(dimension, from, to, dayStart));
        if (to === dayStart + DAY) await db.run(referenceDaily(dayStart));
      }
      const expected = await rollups();

      expect(new Set(expected.hourly.map((row) => row.dimension))).toEqual(new Set(["", ...dimensions]));
      expect(expected.daily.filter((row) => row.dimension === "").map((row) => row.visitors)).toEqual([
        15, 15, 15, 15,
      ]);
      expect(actual).toEqual(expected);
    });
  });
}
