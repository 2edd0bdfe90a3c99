import type { MetricRow, ReportSource } from "../../db/stores/analytics-queries.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { type Metrics, metricsOf, type Period } from "./reports.ts";
import { addDays, DAY, HOUR, offsetAt, offsetsOver, startOfLocalDay } from "./time.ts";

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

/** The local wall time of an instant as an hour bucket's label, `YYYY-MM-DDTHH:00`. */
const hourLabel = (zone: string, at: number) =>
  `${new Date(at + offsetAt(zone, at)).toISOString().slice(0, 13)}:00`;

/** The first local day of a day, week (its Monday) or month (`YYYY-MM`) bucket. */
const firstDayOf = (label: string) => (label.length === 7 ? `${label}-01` : label);

/**
 * The source with the daily rollups of the whole UTC days whose hours all fall in one bucket (a day's row is the sum
 * of its hours, so the bucket gets the same figures from 1 row instead of 24); hours for the other days. A local day
 * holds a whole UTC day only where the offset is 0; weeks and months hold most of them in any zone.
 */
export function withDailyRows(
  source: ReportSource,
  interval: Interval,
  offsets: readonly { from: number; offset: number }[],
): ReportSource {
  const r = source.rollups;
  if (!r || interval === "hour") return source;
  const offsetAt = (at: number) =>
    offsets.findLast((change) => change.from <= at)?.offset ?? offsets[0]!.offset;
  const bucket = (at: number) => dayBucket(new Date(at + offsetAt(at)).toISOString().slice(0, 10), interval);
  const days: { from: number; to: number }[] = [];
  for (let day = Math.ceil(r.from / DAY) * DAY; day + DAY <= r.to; day += DAY) {
    if (bucket(day) !== bucket(day + DAY - 1)) continue;
    const last = days.at(-1);
    if (last?.to === day) last.to = day + DAY;
    else days.push({ from: day, to: day + DAY });
  }
  return { ...source, rollups: { ...r, days } };
}

/**
 * One item per bucket of the period, oldest first, each with its label and the instant it starts. Hours are the
 * local hours that happen: 23 on the day daylight saving starts, 25 on the day it ends (the repeated hour twice,
 * told apart by `start`). The database groups by local hour or day; weeks and months add up their days (visitor ids
 * change daily, so a visitor on two days is two visitors either way).
 */
export async function seriesOf(
  stores: Stores,
  source: ReportSource,
  period: Period,
  interval: Interval,
): Promise<(Metrics & { date: string; start: string })[]> {
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
  const zone = period.timeZone;
  const hourly = interval === "hour";
  const offsets = offsetsOver(zone, period.start, period.end);
  const rows = await stores.analytics.series(
    withDailyRows(source, interval, offsets),
    offsets,
    hourly ? HOUR : DAY,
    hourly,
  );
  const buckets = new Map<string, MetricRow>();
  for (const row of rows) {
    const key = hourly
      ? String(Number(row.value))
      : dayBucket(new Date(Number(row.value) * DAY).toISOString().slice(0, 10), interval);
    const known = buckets.get(key);
    buckets.set(key, known ? sum(known, row) : row);
  }
  const items: { key: string; date: string; start: number }[] = [];
  if (hourly) {
    for (let at = period.start; at < period.end; at += HOUR) {
      items.push({ key: String(at), date: hourLabel(zone, at), start: at });
    }
  } else {
    for (let d = 0; d < days; d++) {
      const label = dayBucket(addDays(period.from, d), interval);
      if (items.at(-1)?.key === label) continue;
      items.push({ key: label, date: label, start: startOfLocalDay(zone, firstDayOf(label)) });
    }
  }
  return items.map(({ key, date, start }) => ({
    date,
    start: new Date(start).toISOString(),
    ...metricsOf(buckets.get(key)),
  }));
}
