// Hourly rollups of raw events, for every website at once. A visit (with its page views, events, bounce and
// duration) counts in the hour of its first event with the value; a visitor in the hour of its first visit with it.
// Visitor ids change every UTC day and a visit never outlives its visitor id, so counting from the start of the
// day of `from` finds every earlier visit and visitor, and nothing is counted twice across runs.
import { type SQL, sql } from "drizzle-orm";
import type { Dialect } from "../types.ts";
import { type Dimension, dimensionSql, ENGAGEMENT, PAGEVIEW, rolledDimensions } from "./analytics-sql.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function ends(which: "entry" | "exit", since: number, to: number): SQL {
  const order = sql.raw(which === "entry" ? "ts asc, id asc" : "ts desc, id desc");
  return sql`(select session_id, path from (select session_id, path, row_number() over (partition by session_id order by ${order}) as rn from analytics_events where ts >= ${since} and ts < ${to} and name = ${PAGEVIEW}) ends where rn = 1)`;
}

function rollupOf(dialect: Dialect, dimension: Dimension | "", from: number, to: number, since: number): SQL {
  const value = dimension === "" ? sql`''` : dimensionSql(dimension);
  const join =
    dimension === "entry_page"
      ? sql` left join ${ends("entry", since, to)} en on en.session_id = ev.session_id`
      : dimension === "exit_page"
        ? sql` left join ${ends("exit", since, to)} ex on ex.session_id = ev.session_id`
        : sql``;
  const custom =
    dimension === "event" ? sql` and ev.name <> ${PAGEVIEW} and ev.name <> ${ENGAGEMENT}` : sql``;
  // Without statistics SQLite may scan the whole (website, ts) index for its order rather than the day's range.
  const events = sql.raw(
    dialect === "sqlite" ? "analytics_events ev indexed by analytics_events_ts_idx" : "analytics_events ev",
  );
  const hour = (column: string) => sql.raw(`(${column} / ${HOUR}) * ${HOUR}`);
  return sql`with s as (select ev.website_id as website_id, ${value} as v, ev.session_id as session_id, ev.visitor_id as visitor_id, sum(case when ev.name = ${PAGEVIEW} then 1 else 0 end) as pv, sum(case when ev.name <> ${PAGEVIEW} and ev.name <> ${ENGAGEMENT} then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1 from ${events}${join} where ev.ts >= ${since} and ev.ts < ${to}${custom} group by ev.website_id, 2, ev.session_id, ev.visitor_id),
firsts as (select website_id, v, visitor_id, min(t0) as f from s group by website_id, v, visitor_id)
insert into analytics_rollups (website_id, dimension, hour, value, pageviews, events, visitors, visits, bounces, duration_ms)
select website_id, ${dimension}, hour, v, sum(pv), sum(evs), sum(visitors), sum(visits), sum(bounces), sum(duration) from (
select website_id, v, ${hour("t0")} as hour, pv, evs, 0 as visitors, 1 as visits, case when pv <= 1 then 1 else 0 end as bounces, t1 - t0 as duration from s where t0 >= ${from}
union all
select website_id, v, ${hour("f")} as hour, 0, 0, 1, 0, 0, 0 from firsts where f >= ${from}
) x where true group by website_id, hour, v
on conflict do nothing`;
}

/**
 * The statements that roll up the hours [from, to), counting events since `dayStart` (the UTC day of `from`); when
 * `to` ends that day, also its daily rows (the sums of its hourly rows).
 */
export function rollupSql(dialect: Dialect, from: number, to: number, dayStart: number): SQL[] {
  const hourly = (["", ...rolledDimensions] as const).map((dimension) =>
    rollupOf(dialect, dimension, from, to, dayStart),
  );
  if (to !== dayStart + DAY) return hourly;
  return [
    ...hourly,
    sql`insert into analytics_daily_rollups (website_id, dimension, day, value, pageviews, events, visitors, visits, bounces, duration_ms) select website_id, dimension, ${sql.raw(String(dayStart))}, value, sum(pageviews), sum(events), sum(visitors), sum(visits), sum(bounces), sum(duration_ms) from analytics_rollups where hour >= ${dayStart} and hour < ${to} group by website_id, dimension, value on conflict do nothing`,
  ];
}
