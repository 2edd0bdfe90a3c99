import type { MetricRow, ReportSource } from "../../db/stores/analytics-queries.ts";
import { type Dimension, dimensions, type Filter, type Scope } from "../../db/stores/analytics-sql.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { type AnalyticsSettings, settingsOf } from "./settings.ts";
import { addDays, DAY, HOUR, localDate, startOfLocalDay } from "./time.ts";

/** The longest period a report covers. */
export const MAX_DAYS = 1_100;
/** Rollups answer the part of a period they cover when it is at least this long. */
const ROLLUPS_FROM_MS = DAY;

/** The metrics of a report row as operations return them. */
export interface Metrics {
  visitors: number;
  visits: number;
  pageviews: number;
  events: number;
  bounceRate: number;
  visitDurationSeconds: number;
  viewsPerVisit: number;
}

export function metricsOf(row: MetricRow | undefined): Metrics {
  const r = row ?? { visitors: 0, visits: 0, pageviews: 0, events: 0, bounces: 0, duration: 0 };
  const perVisit = (n: number, digits: number) =>
    r.visits ? Math.round((n / r.visits) * 10 ** digits) / 10 ** digits : 0;
  return {
    visitors: r.visitors,
    visits: r.visits,
    pageviews: r.pageviews,
    events: r.events,
    bounceRate: perVisit(r.bounces * 100, 1),
    visitDurationSeconds: perVisit(r.duration / 1000, 0),
    viewsPerVisit: perVisit(r.pageviews, 2),
  };
}

/**
 * The website, after checking that its organization's plan may read analytics (billing capability
 * `analytics_view`). Recording never stops, so history appears as soon as the plan allows reading it.
 */
export async function readableWebsite(ctx: ToolContext, websiteId: string): Promise<WebsiteRecord> {
  const website = await ctx.access.website(websiteId);
  const state = await ctx.platform.billing.state({
    stores: ctx.stores,
    organizationId: website.organizationId,
    now: ctx.now,
  });
  if (!state.capabilities.analytics_view) {
    throw new ApiError(
      "forbidden",
      "This organization's plan does not include reading analytics (billing capability analytics_view is false); page views are still recorded.",
      {
        suggestion:
          "An organization owner can upgrade to Pro with {{billing.plan.checkoutChange}} (see {{billing.state.get}}); the history recorded so far then shows at once.",
      },
    );
  }
  return website;
}

/** A period: local dates `from` to `to` (inclusive) in the website's time zone. */
export interface Period {
  from: string;
  to: string;
  start: number;
  end: number;
  timeZone: string;
}

/** The period of `from`/`to` (default: the 30 days ending today) in the website's zone. */
export function periodOf(settings: AnalyticsSettings, now: number, from?: string, to?: string): Period {
  const zone = settings.timeZone;
  const last = to ?? localDate(zone, now);
  const first = from ?? addDays(last, -29);
  if (first > last) throw new ApiError("validation", `from: ${first} is after to (${last}).`);
  const days = Math.round((Date.parse(last) - Date.parse(first)) / DAY) + 1;
  if (days > MAX_DAYS) {
    throw new ApiError("validation", `to: the period is ${days} days long; at most ${MAX_DAYS} are allowed.`);
  }
  return {
    from: first,
    to: last,
    start: startOfLocalDay(zone, first),
    end: startOfLocalDay(zone, addDays(last, 1)),
    timeZone: zone,
  };
}

/** The period of the same length just before. */
export function previousPeriod(period: Period): Period {
  const days = Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY) + 1;
  const to = addDays(period.from, -1);
  const from = addDays(to, -(days - 1));
  return {
    from,
    to,
    start: startOfLocalDay(period.timeZone, from),
    end: period.start,
    timeZone: period.timeZone,
  };
}

/**
 * Where a report over [start, end) reads: the hourly rollups for the whole hours they cover (reports without
 * filters), raw events for the rest.
 */
export async function sourceOf(
  ctx: Pick<ToolContext, "stores">,
  websiteId: string,
  range: { start: number; end: number },
  filters: readonly Filter[],
  rollable = true,
): Promise<ReportSource> {
  const scope = (from: number, to: number): Scope => ({ websiteId, from, to, filters });
  if (!rollable || filters.length > 0) return { raw: [scope(range.start, range.end)] };
  const rolledTo = await ctx.stores.analytics.rolledTo();
  const from = Math.ceil(range.start / HOUR) * HOUR;
  const to = Math.min(Math.floor(range.end / HOUR) * HOUR, rolledTo);
  if (to - from < ROLLUPS_FROM_MS) return { raw: [scope(range.start, range.end)] };
  return {
    raw: [scope(range.start, from), scope(to, range.end)],
    rollups: { websiteId, from, to },
  };
}

/** Reads a website's settings (for its time zone). */
export const reportSettings = (ctx: Pick<ToolContext, "stores">, websiteId: string) =>
  settingsOf(ctx.stores, websiteId);

const OPS = [
  ["!=", "is_not"],
  ["==", "is"],
  ["~", "contains"],
] as const;

/** Parses filters written `dimension==a|b` (is), `dimension!=a` (is not), `dimension~text` (contains). */
export function parseFilters(filters: readonly string[]): Filter[] {
  return filters.map((text, i) => {
    const match = OPS.map(([token, op]) => ({ at: text.indexOf(token), token, op }))
      .filter((m) => m.at > 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!match) {
      throw new ApiError(
        "validation",
        `filters[${i}]: '${text}' is not a filter; write dimension==value, dimension!=value or dimension~text (several values separated by |).`,
      );
    }
    const dimension = text.slice(0, match.at).trim();
    if (!(dimensions as readonly string[]).includes(dimension)) {
      throw new ApiError("validation", `filters[${i}]: '${dimension}' is not a dimension.`, {
        validValues: [...dimensions],
      });
    }
    const values = text.slice(match.at + match.token.length).split("|");
    return { dimension: dimension as Dimension, op: match.op, values };
  });
}
