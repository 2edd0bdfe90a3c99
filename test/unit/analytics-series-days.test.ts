// A time series reads a UTC day's daily rollup row only when all of that day's hours fall in one of its buckets:
// every day in UTC, none for local days in a zone offset from UTC, all but the day a week starts in for weeks.
import { describe, expect, it } from "vitest";
import { withDailyRows } from "../../src/services/analytics/series.ts";
import { offsetsOver } from "../../src/services/analytics/time.ts";

const DAY = 86_400_000;
/** Monday 5 January 2026 to Monday 19 January 2026 (UTC). */
const from = Date.UTC(2026, 0, 5);
const to = Date.UTC(2026, 0, 19);
const source = { raw: [], rollups: { websiteId: "w", from, to } };
const daysOf = (zone: string, interval: "hour" | "day" | "week" | "month") =>
  withDailyRows(source, interval, offsetsOver(zone, from, to)).rollups?.days;

describe("time series from daily rollups", () => {
  it("reads every whole UTC day of a daily series in UTC", () => {
    expect(daysOf("UTC", "day")).toEqual([{ from, to }]);
  });
  it("reads hours for local days offset from UTC, and for hourly series", () => {
    expect(daysOf("Europe/Berlin", "day")).toEqual([]);
    expect(daysOf("UTC", "hour")).toBeUndefined();
  });
  it("reads the days inside one local week, hours for those a week starts in", () => {
    // Berlin's weeks start at 23:00 UTC on Sundays (the 11th and the 18th).
    expect(daysOf("Europe/Berlin", "week")).toEqual([
      { from, to: from + 6 * DAY },
      { from: from + 7 * DAY, to: from + 13 * DAY },
    ]);
    expect(daysOf("America/New_York", "month")).toEqual([{ from, to }]);
  });
});
