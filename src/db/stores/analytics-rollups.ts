// Hourly rollups of raw events, for every website at once. A visit (with its page views, events, bounce and
// duration) counts in the hour of its first event with the value; a visitor in the hour of its first visit with it.
// Visitor ids change every UTC day and a visit never outlives its visitor id, so reading the whole UTC day of `from`
// finds every earlier visit and visitor and every later event of the range's visits (a visit crossing `to` counts
// with all its events so far, as a raw report counts it), and nothing is counted twice across runs.
// One statement rolls up every dimension: the range's events are read once (with each visit's entry and exit page)
// into a materialized table that each dimension then groups.
import { type SQL, sql } from "drizzle-orm";
import type { Dialect } from "../types.ts";
import { type Dimension, dimensionSql, dimensions, ENGAGEMENT, PAGEVIEW } from "./analytics-sql.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** SQL string literals of our own constants (parameters in a UNION's select list would be untyped on PostgreSQL). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const IS_PAGEVIEW = `name = ${literal(PAGEVIEW)}`;
const IS_CUSTOM = sql.raw(`ev.name <> ${literal(PAGEVIEW)} and ev.name <> ${literal(ENGAGEMENT)}`);

/** The first (entry) or last (exit) page view's path of each visit in the range ('' without one). */
function visitEnd(which: "entry" | "exit"): SQL {
  const order = which === "entry" ? "ts asc, id asc" : "ts desc, id desc";
  return sql.raw(
    `coalesce(first_value(case when ${IS_PAGEVIEW} then path end) over (partition by session_id order by case when ${IS_PAGEVIEW} then 0 else 1 end, ${order} rows between unbounded preceding and unbounded following), '')`,
  );
}

/** Per visit of the range: its page views, custom events and first and last event times per value of `dimension`. */
function visitsOf(dimension: Dimension | ""): SQL {
  const value =
    dimension === ""
      ? sql`''`
      : dimension === "entry_page" || dimension === "exit_page"
        ? sql.raw(`ev.${dimension}`)
        : dimensionSql(dimension);
  const custom = dimension === "event" ? sql` where ${IS_CUSTOM}` : sql``;
  return sql`select ev.website_id as website_id, ${sql.raw(literal(dimension))} as d, ${value} as v, ev.session_id as session_id, ev.visitor_id as visitor_id, sum(case when ev.${sql.raw(IS_PAGEVIEW)} then 1 else 0 end) as pv, sum(case when ${IS_CUSTOM} then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1 from ev${custom} group by ev.website_id, 3, ev.session_id, ev.visitor_id`;
}

function hourlyRollup(dialect: Dialect, from: number, to: number, since: number): SQL {
  const dayEnd = since + DAY;
  // Without statistics SQLite may scan the whole (website, ts) index for its order rather than the day's range.
  const events = sql.raw(
    dialect === "sqlite" ? "analytics_events indexed by analytics_events_ts_idx" : "analytics_events",
  );
  const hour = (column: string) => sql.raw(`(${column} / ${HOUR}) * ${HOUR}`);
  const visits = sql.join(
    (["", ...dimensions] as const).map((dimension) => visitsOf(dimension)),
    sql` union all `,
  );
  return sql`with ev as materialized (select id, website_id, session_id, visitor_id, ts, name, path, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, browser, os, country, ${visitEnd("entry")} as entry_page, ${visitEnd("exit")} as exit_page from ${events} where ts >= ${since} and ts < ${dayEnd}),
s as materialized (${visits}),
firsts as (select website_id, d, v, visitor_id, min(t0) as f from s group by website_id, d, v, visitor_id)
insert into analytics_rollups (website_id, dimension, hour, value, pageviews, events, visitors, visits, bounces, duration_ms)
select website_id, d, hour, v, sum(pv), sum(evs), sum(visitors), sum(visits), sum(bounces), sum(duration) from (
select website_id, d, v, ${hour("t0")} as hour, pv, evs, 0 as visitors, 1 as visits, case when pv <= 1 then 1 else 0 end as bounces, t1 - t0 as duration from s where t0 >= ${from} and t0 < ${to}
union all
select website_id, d, v, ${hour("f")} as hour, 0, 0, 1, 0, 0, 0 from firsts where f >= ${from} and f < ${to}
) x where true group by website_id, d, hour, v
on conflict do nothing`;
}

/**
 * The statements that roll up the hours [from, to), counting events since `dayStart` (the UTC day of `from`); when
 * `to` ends that day, also its daily rows (the sums of its hourly rows).
 */
export function rollupSql(dialect: Dialect, from: number, to: number, dayStart: number): SQL[] {
  const hourly = hourlyRollup(dialect, from, to, dayStart);
  if (to !== dayStart + DAY) return [hourly];
  return [
    hourly,
    sql`insert into analytics_daily_rollups (website_id, dimension, day, value, pageviews, events, visitors, visits, bounces, duration_ms) select website_id, dimension, ${sql.raw(String(dayStart))}, value, sum(pageviews), sum(events), sum(visitors), sum(visits), sum(bounces), sum(duration_ms) from analytics_rollups where hour >= ${dayStart} and hour < ${to} group by website_id, dimension, value on conflict do nothing`,
  ];
}
