// The SQL of analytics reports, shared by raw queries and rollups. Every report is one shape: events of a website
// in a time range, matching filters, grouped by a value (a dimension, a time bucket, or nothing), measured per
// visit first (page views, first and last event) and then per value.
import { type SQL, sql } from "drizzle-orm";
import type { Dialect } from "../types.ts";

/** Dimensions every report can break down and filter by, each kept in the rollups (beside '', the totals). */
export const dimensions = [
  "page",
  "entry_page",
  "exit_page",
  "source",
  "referrer",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "device",
  "browser",
  "os",
  "country",
  "event",
] as const;
export type Dimension = (typeof dimensions)[number];

/**
 * Dimensions whose rollup rows of a value are exactly what the filter `dimension==value` counts: each event by its
 * own column. Not entry and exit pages (raw reports take them within the period's edges) nor `event` (its rollups
 * keep custom events only, the filter matches page views too).
 */
export const rolledFilterDimensions: readonly Dimension[] = dimensions.filter(
  (d) => d !== "entry_page" && d !== "exit_page" && d !== "event",
);

export interface Filter {
  dimension: Dimension;
  op: "is" | "is_not" | "contains";
  values: readonly string[];
}

/** Events of one website in [from, to) matching every filter. */
export interface Scope {
  websiteId: string;
  from: number;
  to: number;
  filters: readonly Filter[];
}

/** Names of events that are not custom events. */
export const PAGEVIEW = "pageview";
export const ENGAGEMENT = "engagement";

const columnOf: Record<Exclude<Dimension, "entry_page" | "exit_page">, string> = {
  page: "ev.path",
  source: "ev.source",
  referrer: "ev.referrer",
  utm_source: "ev.utm_source",
  utm_medium: "ev.utm_medium",
  utm_campaign: "ev.utm_campaign",
  utm_term: "ev.utm_term",
  utm_content: "ev.utm_content",
  device: "ev.device",
  browser: "ev.browser",
  os: "ev.os",
  country: "ev.country",
  event: "ev.name",
};

/** The SQL value of a dimension for an event row `ev` (entry and exit pages come from joined visit rows). */
export function dimensionSql(dimension: Dimension): SQL {
  if (dimension === "entry_page") return sql.raw("coalesce(en.path, '')");
  if (dimension === "exit_page") return sql.raw("coalesce(ex.path, '')");
  return sql.raw(columnOf[dimension]);
}

/** A property of custom events' props as text ('' when absent). */
export function propertySql(dialect: Dialect, key: string): SQL {
  return dialect === "pg"
    ? sql`coalesce(ev.props ->> ${key}, '')`
    : sql`coalesce(json_extract(ev.props, ${`$."${key.replaceAll('"', '""')}"`}), '')`;
}

/** Byte order of text on PostgreSQL (SQLite compares bytes already). */
export const byteOrder = (dialect: Dialect): SQL => sql.raw(dialect === "pg" ? ' collate "C"' : "");

function filterSql(dialect: Dialect, filter: Filter): SQL {
  const column = dimensionSql(filter.dimension);
  if (filter.op === "contains") {
    // Case-insensitive beyond ASCII on both: PostgreSQL's lower() under the database's locale (a `C` column's own
    // collation would fold ASCII only), SQLite's lower_unicode() (JavaScript's toLowerCase, see dialects/sqlite.ts).
    const any = filter.values.map((value) =>
      dialect === "pg"
        ? sql`strpos(lower((${column}) collate "default"), lower(${value} collate "default")) > 0`
        : sql`instr(lower_unicode(${column}), lower_unicode(${value})) > 0`,
    );
    return sql`(${sql.join(any, sql` or `)})`;
  }
  const list = sql.join(
    filter.values.map((value) => sql`${value}`),
    sql`, `,
  );
  return filter.op === "is" ? sql`${column} in (${list})` : sql`${column} not in (${list})`;
}

const DAY = 86_400_000;

/**
 * The events a scope's visits are measured from: its UTC days. A visit counts where its first event is (as in the
 * rollups) with all its events, and never outlives its UTC day (visitor ids change daily).
 */
const daysOf = (scope: Scope) => ({
  from: Math.floor(scope.from / DAY) * DAY,
  to: Math.ceil(scope.to / DAY) * DAY,
});

/** The first (entry) or last (exit) page view of each visit of the scope's days. */
function visitEndsSql(scope: Scope, which: "entry" | "exit"): SQL {
  const order = which === "entry" ? sql.raw("ts asc, id asc") : sql.raw("ts desc, id desc");
  const days = daysOf(scope);
  return sql`(select session_id, path from (select session_id, path, row_number() over (partition by session_id order by ${order}) as rn from analytics_events where website_id = ${scope.websiteId} and ts >= ${days.from} and ts < ${days.to} and name = ${PAGEVIEW}) ends where rn = 1)`;
}

const needsEnds = (scope: Scope, extra: readonly Dimension[], which: Dimension) =>
  extra.includes(which) || scope.filters.some((f) => f.dimension === which);

/**
 * Per value and visit of the scope's UTC days: the visit's page views, custom events and first and last event times,
 * and (unless `firsts` is false) `r` = 1 on the visitor's first visit with the value (ties by visit id).
 * `value` is the SQL the rows are grouped by; `where` narrows the events further (the custom events of an event
 * breakdown). metricsOfVisits keeps the visits that start in the scope.
 */
export function visitRowsSql(
  dialect: Dialect,
  scope: Scope,
  value: SQL,
  options: { where?: SQL; uses?: readonly Dimension[]; firsts?: boolean } = {},
): SQL {
  const uses = options.uses ?? [];
  const joins: SQL[] = [];
  if (needsEnds(scope, uses, "entry_page"))
    joins.push(sql` left join ${visitEndsSql(scope, "entry")} en on en.session_id = ev.session_id`);
  if (needsEnds(scope, uses, "exit_page"))
    joins.push(sql` left join ${visitEndsSql(scope, "exit")} ex on ex.session_id = ev.session_id`);
  const days = daysOf(scope);
  const conditions = [
    sql`ev.website_id = ${scope.websiteId}`,
    sql`ev.ts >= ${days.from}`,
    sql`ev.ts < ${days.to}`,
    ...scope.filters.map((filter) => filterSql(dialect, filter)),
    ...(options.where ? [options.where] : []),
  ];
  const rows = sql`select ${value} as v, ev.session_id as session_id, ev.visitor_id as visitor_id, sum(case when ev.name = ${PAGEVIEW} then 1 else 0 end) as pv, sum(case when ev.name <> ${PAGEVIEW} and ev.name <> ${ENGAGEMENT} then 1 else 0 end) as evs, min(ev.ts) as t0, max(ev.ts) as t1 from analytics_events ev${sql.join(joins, sql``)} where ${sql.join(conditions, sql` and `)} group by 1, ev.session_id, ev.visitor_id`;
  if (options.firsts === false) return rows;
  return sql`select g.*, row_number() over (partition by v, visitor_id order by t0, session_id) as r from (${rows}) g`;
}

/**
 * Whether counting a report's visitors distinct per value or bucket counts each once as at its first visit, which
 * is cheaper (visit rows then need no `r`: visitRowsSql's `firsts: false`): when the scope is whole UTC days, every
 * visit of its visitors (whose ids last a UTC day) is in it, and each visitor's visits fall in one bucket when the
 * buckets are UTC days or one bucket holds the scope.
 */
export function distinctVisitors(
  scope: { from: number; to: number },
  bucket?: { offsets: readonly { offset: number }[]; size: number },
): boolean {
  if (scope.from % DAY !== 0 || scope.to % DAY !== 0) return false;
  if (!bucket) return true;
  const { offsets, size } = bucket;
  if (size % DAY === 0 && offsets.every((o) => o.offset % DAY === 0)) return true;
  const offset = offsets[0]!.offset;
  return (
    offsets.length === 1 &&
    Math.floor((scope.from + offset) / size) === Math.floor((scope.to - 1 + offset) / size)
  );
}

/**
 * The metric columns of a report (the same columns rollups store) from visit rows grouped by `v`, counted as the
 * rollups count them: a visit (its page views, events, bounce and duration) where its first event with the value
 * is, a visitor where its first visit with the value starts; both only when that is in [from, to). With `bucket`,
 * per time bucket of those instants instead of per value. `distinct` counts visitors distinct (see distinctVisitors).
 */
export function metricsOfVisits(
  visits: SQL,
  range: { from: number; to: number },
  bucket?: (time: SQL) => SQL,
  distinct = false,
): SQL {
  const key = bucket ? bucket(sql.raw("t0")) : sql.raw("v");
  const within = sql.raw(`t0 >= ${Math.trunc(range.from)} and t0 < ${Math.trunc(range.to)}`);
  const visitors = sql.raw(
    distinct ? "count(distinct visitor_id)" : "sum(case when r = 1 then 1 else 0 end)",
  );
  return sql`select ${key} as v, ${visitors} as visitors, count(*) as visits, sum(pv) as pageviews, sum(evs) as events, sum(case when pv <= 1 then 1 else 0 end) as bounces, sum(t1 - t0) as duration from (${visits}) s where ${within} group by 1`;
}

/**
 * Rollup rows of a website and dimension (and with `only`, one value of it) over [from, to), grouped by `value` (SQL
 * over `value` and the time column): hourly rows over whole hours, or with `daily` the daily rows over whole UTC
 * days (column `day`).
 */
export function metricsOfRollups(
  websiteId: string,
  dimension: string,
  range: { from: number; to: number; daily?: boolean },
  value: (time: SQL) => SQL,
  only?: string,
): SQL {
  const [table, time] = range.daily ? ["analytics_daily_rollups", "day"] : ["analytics_rollups", "hour"];
  const of = only === undefined ? sql`` : sql` and value = ${only}`;
  return sql`select ${value(sql.raw(time))} as v, sum(visitors) as visitors, sum(visits) as visits, sum(pageviews) as pageviews, sum(events) as events, sum(bounces) as bounces, sum(duration_ms) as duration from ${sql.raw(table)} where website_id = ${websiteId} and dimension = ${dimension}${of} and ${sql.raw(time)} >= ${range.from} and ${sql.raw(time)} < ${range.to} group by 1`;
}

/** Sums metric rows of several sources (raw events before and after the rollups, the rollups) per value. */
export function sumMetrics(parts: readonly SQL[]): SQL {
  return sql`select v, sum(visitors) as visitors, sum(visits) as visits, sum(pageviews) as pageviews, sum(events) as events, sum(bounces) as bounces, sum(duration) as duration from (${sql.join([...parts], sql` union all `)}) parts group by v`;
}

/**
 * A time bucket of `column` (Unix ms) in local time: `offsets` are the zone's UTC offsets in ms, each from its
 * instant on (the first from the start of the range), so a bucket follows daylight saving changes. The bucket is
 * its index (local time / `size`) or, with `instant`, the Unix ms its local bucket starts at: distinct for the two
 * hours a clock shows twice when daylight saving ends.
 */
export function bucketSql(
  column: SQL,
  offsets: readonly { from: number; offset: number }[],
  size: number,
  instant = false,
): SQL {
  // Integers written as literals: PostgreSQL would type parameters of a CASE as text.
  const int = (n: number) => sql.raw(String(Math.trunc(n)));
  let offset: SQL = int(offsets[0]!.offset);
  for (const change of offsets.slice(1)) {
    offset = sql`case when ${column} >= ${int(change.from)} then ${int(change.offset)} else ${offset} end`;
  }
  const index = sql`((${column} + ${offset}) / ${int(size)})`;
  return instant ? sql`(${index} * ${int(size)} - ${offset})` : index;
}
