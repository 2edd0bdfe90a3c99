import type { MetricRow, ReportSource } from "../../db/stores/analytics-queries.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { type Metrics, metricsOf, type Period } from "./reports.ts";
import { addDays, DAY, HOUR, offsetsOver } from "./time.ts";

export type Interval = "hour" | "day" | "week" | "month";

/** The label of the bucket a local day (`YYYY-MM-DD`) falls in. */
function dayBucket(date: string, interval: Interval): string {
  if (interval === "month") return date.slice(0, 7);
  if (interval === "day") return date;
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

const sum = (a: MetricRow, b: MetricRow): MetricRow => ({
  value: a.value,
  visitors: a.visitors + b.visitors,
  visits: a.visits + b.visits,
  pageviews: a.pageviews + b.pageviews,
  events: a.events + b.events,
  bounces: a.bounces + b.bounces,
  duration: a.duration + b.duration,
});

/**
 * One item per bucket of the period, oldest first. The database groups by local hour or day; weeks and months
 * add up their days (visitor ids change daily, so a visitor on two days is two visitors either way).
 */
export async function seriesOf(
  stores: Stores,
  source: ReportSource,
  period: Period,
  interval: Interval,
): Promise<(Metrics & { date: string })[]> {
  const days = Math.round((Date.parse(period.to) - Date.parse(period.from)) / DAY) + 1;
  if (interval === "hour" && days > 31) {
    throw new ApiError(
      "validation",
      `interval: hour allows periods of at most 31 days; this one has ${days}.`,
      {
        validValues: ["hour", "day", "week", "month"],
        suggestion: "Use interval day, week or month, or a shorter period.",
      },
    );
  }
  const size = interval === "hour" ? HOUR : DAY;
  const offsets = offsetsOver(period.timeZone, period.start, period.end);
  const rows = await stores.analytics.series(source, offsets, size);
  const buckets = new Map<string, MetricRow>();
  const labels: string[] = [];
  for (let d = 0; d < days; d++) {
    const date = addDays(period.from, d);
    if (interval === "hour") {
      for (let h = 0; h < 24; h++) labels.push(`${date}T${String(h).padStart(2, "0")}:00`);
    } else if (labels.at(-1) !== dayBucket(date, interval)) labels.push(dayBucket(date, interval));
  }
  for (const row of rows) {
    const local = new Date(Number(row.value) * size).toISOString();
    const label = interval === "hour" ? `${local.slice(0, 13)}:00` : dayBucket(local.slice(0, 10), interval);
    const known = buckets.get(label);
    buckets.set(label, known ? sum(known, row) : row);
  }
  return labels.map((date) => ({ date, ...metricsOf(buckets.get(date)) }));
}
