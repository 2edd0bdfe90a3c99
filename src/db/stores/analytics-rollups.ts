// Hourly rollups of raw events, for every website at once. A visit (with its page views, events, bounce and
// duration) counts in the hour of its first event with the value; a visitor in the hour of its first visit with it.
// Visitor ids change every UTC day and a visit never outlives its visitor id, so reading the whole UTC day of `from`
// finds every earlier visit and visitor and every later event of the range's visits (a visit crossing `to` counts
// with all its events so far, as a raw report counts it), and nothing is counted twice across runs.
// One statement rolls up every dimension: the day's events are read once (with each visit's entry and exit page)
// into a materialized table, summed per visit for the dimensions visits carry (all but page and event), grouped per
// visit and value for every dimension, each row flagged when it is the visitor's first visit with the value (a
// window), and summed per hour and value: no second pass for the visitors.
import { type SQL, sql } from "drizzle-orm";
import type { Dialect } from "../types.ts";
import { type Dimension, dimensionSql, dimensions, ENGAGEMENT, PAGEVIEW } from "./analytics-sql.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** SQL string literals of our own constants (parameters in a UNION's select list would be untyped on PostgreSQL). */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const IS_PAGEVIEW = `name = ${literal(PAGEVIEW)}`;
const IS_CUSTOM = sql.raw(`ev.name <> ${literal(PAGEVIEW)} and ev.name <> ${literal(ENGAGEMENT)}`);

/**
 * `with recursive` item `w(wid)`: the ids of the websites that have raw events, each found with one step of the
 * `(website_id, ts)` index (from one website's id to the next), so reads by time across websites need no index on
 * `ts` alone (every append would enter it).
 */
export const WEBSITES_WITH_EVENTS = sql.raw(
  "w(wid) as (select min(website_id) from analytics_events union all select (select min(website_id) from analytics_events where website_id > w.wid) from w where w.wid is not null)",
);

/**
 * A FROM source of the raw events of every website in `w` (see WEBSITES_WITH_EVENTS) matching `where` (over the
 * event's columns), read one website at a time by the `(website_id, ts)` index: SQLite's CROSS JOIN keeps `w` the
 * outer loop, PostgreSQL's LATERAL reads each website's range.
 */
export function eventsOfEachWebsite(dialect: Dialect, where: SQL): SQL {
  return dialect === "sqlite"
    ? sql`w cross join analytics_events indexed by analytics_events_website_ts_idx where website_id = w.wid and ${where}`
    : sql`w cross join lateral (select ctid, * from analytics_events where website_id = w.wid and ${where}) e`;
}

/** The first (entry) or last (exit) page view's path of each visit in the range ('' without one). */
function visitEnd(which: "entry" | "exit"): SQL {
  const order = which === "entry" ? "ts asc, id asc" : "ts desc, id desc";
  return sql.raw(
    `coalesce(first_value(case when ${IS_PAGEVIEW} then path end) over (partition by session_id order by case when ${IS_PAGEVIEW} then 0 else 1 end, ${order} rows between unbounded preceding and unbounded following), '')`,
  );
}

/** The dimensions whose value an event takes from its visit (all but page and event), grouped from `vis`. */
const visitColumns = sql.raw(
  dimensions
    .filter((d) => d !== "page" && d !== "event")
    .map((d) => `ev.${d}`)
    .join(", "),
);

/**
 * Per visit of the range: its page views, custom events and first and last event times per value of `dimension`,
 * from the events (`ev`) or, for the dimensions of visits and the totals, from `vis`, the same sums per visit and
 * combination of those values (one row per visit in practice: sums, minima and maxima add up either way).
 */
function visitsOf(dimension: Dimension | ""): SQL {
  const value =
    dimension === ""
      ? sql`''`
      : dimension === "entry_page" || dimension === "exit_page"
        ? sql.raw(`ev.${dimension}`)
        : dimensionSql(dimension);
  const head = sql`select ev.website_id as website_id, ${sql.raw(literal(dimension))} as d, ${value} as v, ev.session_id as session_id, ev.visitor_id as visitor_id`;
  const events = dimension === "page" || dimension === "event";
  // r = 1 marks the visitor's first visit with the value (ties by session): the visitor counts in its hour.
  const first = sql`row_number() over (partition by ev.website_id, ${value}, ev.visitor_id order by min(${sql.raw(events ? "ev.ts" : "ev.t0")}), ev.session_id) as r`;
  const group = sql`group by ev.website_id, 3, ev.session_id, ev.visitor_id`;
  if (events) {
    const custom = dimension === "event" ? sql` where ${IS_CUSTOM}` : sql``;
    return sql`${head}, sum(case when ev.${sql.raw(IS_PAGEVIEW)} then 1 else 0 end) as pv, sum(case when ${IS_CUSTOM} then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1, ${first} from ev${custom} ${group}`;
  }
  return sql`${head}, sum(ev.pv) as pv, sum(ev.evs) as evs, min(ev.t0) as t0, max(ev.t1) as t1, ${first} from vis ev ${group}`;
}

function hourlyRollup(dialect: Dialect, from: number, to: number, since: number): SQL {
  const dayEnd = since + DAY;
  const events = eventsOfEachWebsite(dialect, sql`ts >= ${since} and ts < ${dayEnd}`);
  const hour = (column: string) => sql.raw(`(${column} / ${HOUR}) * ${HOUR}`);
  const visits = sql.join(
    (["", ...dimensions] as const).map((dimension) => visitsOf(dimension)),
    sql` union all `,
  );
  return sql`with recursive ${WEBSITES_WITH_EVENTS},
ev as materialized (select id, website_id, session_id, visitor_id, ts, name, path, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, device, browser, os, country, ${visitEnd("entry")} as entry_page, ${visitEnd("exit")} as exit_page from ${events}),
vis as materialized (select ev.website_id as website_id, ev.session_id as session_id, ev.visitor_id as visitor_id, ${visitColumns}, sum(case when ev.${sql.raw(IS_PAGEVIEW)} then 1 else 0 end) as pv, sum(case when ${IS_CUSTOM} then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1 from ev group by ev.website_id, ev.session_id, ev.visitor_id, ${visitColumns}),
s as (${visits})
insert into analytics_rollups (website_id, dimension, hour, value, pageviews, events, visitors, visits, bounces, duration_ms)
select website_id, d, ${hour("t0")}, v, sum(pv), sum(evs), sum(case when r = 1 then 1 else 0 end), count(*), sum(case when pv <= 1 then 1 else 0 end), sum(t1 - t0) from s where t0 >= ${from} and t0 < ${to} group by website_id, d, 3, v
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
