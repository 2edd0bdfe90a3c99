import { and, asc, eq, gt, gte, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db, Dialect, Tables } from "../types.ts";
import { rawRows } from "../types.ts";
import {
  bucketSql,
  byteOrder,
  type Dimension,
  dimensionSql,
  distinctVisitors,
  ENGAGEMENT,
  metricsOfRollups,
  metricsOfVisits,
  PAGEVIEW,
  propertySql,
  type Scope,
  sumMetrics,
  visitRowsSql,
} from "./analytics-sql.ts";

/** Totals of one report row. `duration` is the sum of visits' durations (ms). */
export interface MetricRow {
  value: string;
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  bounces: number;
  duration: number;
}

/**
 * Where a report reads from: raw events of `raw` scopes (each a time range with the report's filters), plus the
 * rollups of [rollups.from, rollups.to) when the report has no filters: the daily rollups for the whole UTC days
 * of the ranges `rollups.days` (within that range, in order, disjoint), the hourly ones for the rest.
 */
export interface ReportSource {
  raw: readonly Scope[];
  rollups?: {
    websiteId: string;
    from: number;
    to: number;
    days?: readonly { from: number; to: number }[];
    /** The rows of one dimension value instead of the totals (a series or total filtered by `dimension==value`). */
    only?: { dimension: Dimension; value: string };
  };
}

/** What a breakdown groups by: a dimension, or a property of custom events. */
export type Grouping = { dimension: Dimension } | { property: string };

export interface AnalyticsQueries {
  /**
   * Metric rows grouped by local time bucket (`size` ms after the zone's offsets), value = the bucket's index, or
   * with `instant` the Unix ms it starts at (see bucketSql).
   */
  series(
    source: ReportSource,
    offsets: readonly { from: number; offset: number }[],
    size: number,
    instant?: boolean,
  ): Promise<MetricRow[]>;
  /** One page of a breakdown, most visitors first, then by value (byte order). */
  breakdown(
    source: ReportSource,
    grouping: Grouping,
    page: { after?: { visitors: number; value: string }; limit: number },
  ): Promise<MetricRow[]>;
  /** Visitors and page views since `since`, and the most viewed pages. */
  realtime(
    websiteId: string,
    since: number,
    limit: number,
  ): Promise<{ visitors: number; pageviews: number; pages: { path: string; visitors: number }[] }>;
  /** Raw page views (and events when `all`) of [from, to) after a position, oldest first. */
  rawEvents(
    websiteId: string,
    range: { from: number; to: number },
    page: { after?: { ts: number; id: number }; limit: number; pageviewsOnly: boolean },
  ): Promise<Tables["analyticsEvents"]["$inferSelect"][]>;
}

const num = (value: unknown): number => (value == null ? 0 : Number(value));

const toRow = (row: Record<string, unknown>): MetricRow => ({
  value: row.v == null ? "" : String(row.v),
  visitors: num(row.visitors),
  visits: num(row.visits),
  pageviews: num(row.pageviews),
  events: num(row.events),
  bounces: num(row.bounces),
  duration: num(row.duration),
});

const customOnly = sql`ev.name <> ${PAGEVIEW} and ev.name <> ${ENGAGEMENT}`;

export function analyticsQueries(db: Db, t: Tables, dialect: Dialect): AnalyticsQueries {
  const e = t.analyticsEvents;

  /** Metric rows per value from raw events and rollups; `raw` builds the value of an event row, `rolled` of a rollup row. */
  function parts(
    source: ReportSource,
    raw: (scope: Scope) => SQL,
    rolled?: { dimension: string; value: (time: SQL) => SQL },
  ): SQL {
    const all = source.raw.filter((scope) => scope.to > scope.from).map(raw);
    const r = source.rollups;
    if (r && rolled && r.to > r.from) {
      // Hourly rows between and around the daily ranges.
      const ranges: { from: number; to: number; daily?: boolean }[] = [];
      let at = r.from;
      for (const days of r.days ?? []) {
        ranges.push({ from: at, to: days.from }, { ...days, daily: true });
        at = days.to;
      }
      ranges.push({ from: at, to: r.to });
      for (const range of ranges.filter((range) => range.to > range.from))
        all.push(metricsOfRollups(r.websiteId, rolled.dimension, range, rolled.value, r.only?.value));
    }
    if (all.length === 0)
      return sql`select '' as v, 0 as visitors, 0 as visits, 0 as pageviews, 0 as events, 0 as bounces, 0 as duration where 1 = 0`;
    return all.length === 1 ? all[0]! : sumMetrics(all);
  }

  return {
    async series(source, offsets, size, instant = false) {
      const bucket = (column: SQL) => bucketSql(column, offsets, size, instant);
      const query = parts(
        source,
        (scope) => {
          const distinct = distinctVisitors(scope, { offsets, size });
          return metricsOfVisits(
            visitRowsSql(dialect, scope, sql`''`, { firsts: !distinct }),
            scope,
            bucket,
            distinct,
          );
        },
        { dimension: source.rollups?.only?.dimension ?? "", value: bucket },
      );
      return (await rawRows<Record<string, unknown>>(db, dialect, query)).map(toRow);
    },
    async breakdown(source, grouping, page) {
      const dimension = "dimension" in grouping ? grouping.dimension : undefined;
      const value = dimension
        ? dimensionSql(dimension)
        : propertySql(dialect, (grouping as { property: string }).property);
      const where = dimension === "event" || !dimension ? customOnly : undefined;
      const query = parts(
        source,
        (scope) => {
          const distinct = distinctVisitors(scope);
          return metricsOfVisits(
            visitRowsSql(dialect, scope, value, {
              where,
              uses: dimension ? [dimension] : [],
              firsts: !distinct,
            }),
            scope,
            undefined,
            distinct,
          );
        },
        dimension ? { dimension, value: () => sql.raw("value") } : undefined,
      );
      const collate = byteOrder(dialect);
      const after = page.after
        ? sql` where r.visitors < ${page.after.visitors} or (r.visitors = ${page.after.visitors} and r.v${collate} > ${page.after.value}${collate})`
        : sql``;
      const rows = await rawRows<Record<string, unknown>>(
        db,
        dialect,
        sql`select * from (${query}) r${after} order by r.visitors desc, r.v${collate} asc limit ${page.limit}`,
      );
      return rows.map(toRow);
    },
    async realtime(websiteId, since, limit) {
      const recent = and(eq(e.websiteId, websiteId), gte(e.ts, since));
      const [totals] = await db
        .select({
          visitors: sql<number>`count(distinct ${e.visitorId})`,
          pageviews: sql<number>`sum(case when ${e.name} = ${PAGEVIEW} then 1 else 0 end)`,
        })
        .from(e)
        .where(recent);
      const visitors = sql<number>`count(distinct ${e.visitorId})`;
      const pages = await db
        .select({ path: e.path, visitors })
        .from(e)
        .where(and(recent, eq(e.name, PAGEVIEW)))
        .groupBy(e.path)
        .orderBy(sql`2 desc`, asc(e.path))
        .limit(limit);
      return {
        visitors: num(totals?.visitors),
        pageviews: num(totals?.pageviews),
        pages: pages.map((p) => ({ path: p.path, visitors: num(p.visitors) })),
      };
    },
    async rawEvents(websiteId, range, page) {
      const position = page.after
        ? or(gt(e.ts, page.after.ts), and(eq(e.ts, page.after.ts), gt(e.id, page.after.id)))
        : undefined;
      return db
        .select()
        .from(e)
        .where(
          and(
            eq(e.websiteId, websiteId),
            gte(e.ts, range.from),
            lt(e.ts, range.to),
            page.pageviewsOnly ? eq(e.name, PAGEVIEW) : undefined,
            position,
          ),
        )
        .orderBy(asc(e.ts), asc(e.id))
        .limit(page.limit);
    },
  };
}
