import type { MetricRow, ReportSource } from "../../db/stores/analytics-queries.ts";
import {
  type Dimension,
  dimensions,
  type Filter,
  rolledFilterDimensions,
  type Scope,
} from "../../db/stores/analytics-sql.ts";
import type { WebsiteRecord } from "../../db/stores/websites.ts";
import type { ToolContext } from "../../kernel/context.ts";
import { ApiError } from "../../kernel/errors.ts";
import { type AnalyticsSettings, settingsOf } from "./settings.ts";
import { addDays, DAY, HOUR, localDate, startOfLocalDay, wholeHourOffsets } from "./time.ts";

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
 * Where a report over [start, end) reads: the rollups for the whole hours they cover (reports without filters;
 * daily rollups for the whole UTC days among them, except in a time series, which picks its days: seriesOf), raw
 * events for the rest; so do totals and series filtered by one `dimension==value` of a rolled filter dimension, from
 * that value's rows (not with `byValue`: a breakdown groups by another dimension). Other filtered reports and event
 * properties read raw events only (rollups keep each dimension alone); `rawFrom` is then set when rollups hold
 * traffic of the period from before the oldest raw event kept, which those reports cannot count.
 *
 * Raw events are kept whole from a UTC day on (purgeAnalytics). Before it, in a zone whose offsets are not whole hours
 * (`bucketsIn` names a time series' zone; totals look at the period's edges), rollups stand in with each hour counted
 * where its start falls (the hour straddling the period's start belongs to the period before, the one straddling
 * its end to this one): `shiftedBefore` is then that day. A time series there reads raw events wherever they are
 * kept, since an hourly rollup straddles two local buckets.
 */
export async function sourceOf(
  ctx: Pick<ToolContext, "stores">,
  websiteId: string,
  range: { start: number; end: number },
  filters: readonly Filter[],
  how: { rollable?: boolean; bucketsIn?: string; byValue?: boolean } = {},
): Promise<ReportSource & { rawFrom?: number; shiftedBefore?: number }> {
  const scope = (from: number, to: number): Scope => ({ websiteId, from, to, filters });
  const analytics = ctx.stores.analytics;
  const only = how.byValue ? undefined : rolledFilter(filters);
  if (how.rollable === false || (filters.length > 0 && !only)) {
    const oldest = await analytics.oldestEvent(websiteId);
    const gapEnd = Math.min(range.end, oldest ?? range.end);
    const missing =
      gapEnd > range.start &&
      (await analytics.rolledTraffic(websiteId, Math.floor(range.start / HOUR) * HOUR, gapEnd));
    return { raw: [scope(range.start, range.end)], ...(missing ? { rawFrom: oldest ?? range.end } : {}) };
  }
  const rolledTo = await analytics.rolledTo();
  const oldest = await analytics.oldestEvent(websiteId);
  // Raw events are whole from `kept` on; the rollups hold everything before it.
  const kept = Math.min(oldest === null ? rolledTo : Math.floor(oldest / DAY) * DAY, rolledTo);
  const fractional = how.bucketsIn
    ? !wholeHourOffsets(how.bucketsIn, range.start, range.end)
    : range.start % HOUR !== 0 || range.end % HOUR !== 0;
  const from = Math.ceil(range.start / HOUR) * HOUR;
  let to = Math.min(Math.floor(range.end / HOUR) * HOUR, rolledTo);
  if (range.end <= kept) to = Math.ceil(range.end / HOUR) * HOUR;
  else if (how.bucketsIn && fractional) to = Math.min(to, kept);
  // A short period reads raw events, unless they were deleted (past the raw retention).
  if (to <= from || (to - from < ROLLUPS_FROM_MS && kept <= range.start)) {
    return { raw: [scope(range.start, range.end)] };
  }
  const shifted =
    fractional &&
    range.start < kept &&
    (await analytics.rolledTraffic(websiteId, Math.floor(range.start / HOUR) * HOUR, kept));
  // Totals and breakdowns read daily rollups for the whole UTC days inside; a time series picks the days that fit its buckets.
  const days = { from: Math.ceil(from / DAY) * DAY, to: Math.floor(to / DAY) * DAY };
  return {
    raw: [scope(range.start, from), scope(to, range.end)],
    rollups: {
      websiteId,
      from,
      to,
      ...(how.bucketsIn || days.to <= days.from ? {} : { days: [days] }),
      ...(only ? { only } : {}),
    },
    ...(shifted ? { shiftedBefore: kept } : {}),
  };
}

/** The dimension value a report's one filter selects, when the rollups of that value count it (rolledFilterDimensions). */
function rolledFilter(filters: readonly Filter[]): { dimension: Dimension; value: string } | undefined {
  const [filter] = filters;
  if (!filter || filters.length !== 1 || filter.op !== "is" || filter.values.length !== 1) return undefined;
  if (!rolledFilterDimensions.includes(filter.dimension)) return undefined;
  return { dimension: filter.dimension, value: filter.values[0]! };
}

/**
 * Whether a report counted exactly its period, and if not, why (for the `complete` and `notice` outputs): raw events
 * a filtered report needs were deleted (`rawFrom`), or rollups stood in for them in a zone whose local hours and
 * days are not whole UTC hours (`shiftedBefore`).
 */
export function coverageOf(
  period: Pick<Period, "timeZone">,
  ...sources: { rawFrom?: number; shiftedBefore?: number }[]
): { complete: boolean; notice: string | null } {
  const rawFrom = sources.find((s) => s.rawFrom !== undefined)?.rawFrom;
  const shifted = sources.find((s) => s.shiftedBefore !== undefined)?.shiftedBefore;
  const notices: string[] = [];
  if (rawFrom !== undefined) {
    notices.push(
      `Filtered reports and event properties read raw events, and those before ${localDate(period.timeZone, rawFrom)} were deleted after the raw retention (analyticsRawRetentionMonths): traffic before that day is not counted here. Reports without filters answer from hourly rollups, kept for good.`,
    );
  }
  if (shifted !== undefined) {
    notices.push(
      `Raw events before ${localDate(period.timeZone, shifted)} were deleted after the raw retention (analyticsRawRetentionMonths), and the hourly rollups that count that traffic are whole UTC hours, which do not fit the local hours of ${period.timeZone}: before that day each rolled-up hour counts whole in the local hour and day its start falls in (the period's edges and buckets are off by up to 45 minutes there). Later figures are exact.`,
    );
  }
  if (notices.length === 0) return { complete: true, notice: null };
  return { complete: false, notice: notices.join(" ") };
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
