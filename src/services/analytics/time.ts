// Local time of a website's time zone, as reports need it: where a local day starts, and the zone's UTC offsets
// over a range (daylight saving changes included), all from Intl.
const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, f);
  }
  return f;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The zone's offset from UTC at `ms`, in ms (local = UTC + offset). */
export function offsetAt(zone: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of format(zone).formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return local - Math.floor(ms / 1000) * 1000;
}

/** The instant a local date (`YYYY-MM-DD`) starts in the zone. */
export function startOfLocalDay(zone: string, date: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const guess = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, guess);
}

/** The local date (`YYYY-MM-DD`) of an instant in the zone. */
export function localDate(zone: string, ms: number): string {
  return new Date(ms + offsetAt(zone, ms)).toISOString().slice(0, 10);
}

/** The date `days` after `date` (both `YYYY-MM-DD`). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The zone's offsets over [from, to): the first from `from`, then each change from the instant it happens. */
export function offsetsOver(zone: string, from: number, to: number): { from: number; offset: number }[] {
  const offsets = [{ from, offset: offsetAt(zone, from) }];
  for (let at = from; at < to; at += DAY) {
    const next = Math.min(at + DAY, to);
    const current = offsets.at(-1)!.offset;
    if (offsetAt(zone, next) === current) continue;
    // Zones change on a quarter hour: search the change down to the minute.
    let lo = at;
    let hi = next;
    while (hi - lo > 60_000) {
      const mid = lo + Math.max(60_000, Math.floor((hi - lo) / 120_000) * 60_000);
      if (offsetAt(zone, mid) === current) lo = mid;
      else hi = mid;
    }
    offsets.push({ from: hi, offset: offsetAt(zone, hi) });
  }
  return offsets;
}

/** Whether the zone's offsets over [from, to) are all whole hours (so hourly UTC rollups fit its local hours). */
export const wholeHourOffsets = (zone: string, from: number, to: number): boolean =>
  offsetsOver(zone, from, to).every(({ offset }) => offset % HOUR === 0);
