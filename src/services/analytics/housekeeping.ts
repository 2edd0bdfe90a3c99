import type { Platform } from "../../kernel/platform.ts";
import { DAY, HOUR } from "./time.ts";

/** Hours are rolled up once this long has passed since they ended, so the visits they start have ended too. */
export const ROLLUP_LAG_MS = 2 * HOUR;
const PURGE_BATCH = 10_000;

/** The instant `months` calendar months before `now` (UTC). */
export function monthsBefore(now: number, months: number): number {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.getTime();
}

/**
 * Rolls up every whole hour not yet rolled up that ended at least ROLLUP_LAG_MS ago, one UTC day per transaction
 * (the first run starts at the day of the oldest event). Safe on several nodes at once: a node whose progress
 * was moved by another leaves that range alone. Returns the hours rolled up.
 */
export async function rollUpAnalytics(platform: Platform, now = Date.now()): Promise<number> {
  const limit = Math.floor((now - ROLLUP_LAG_MS) / HOUR) * HOUR;
  let from = await platform.db.read((s) => s.analytics.rolledTo());
  if (from === 0) {
    const oldest = await platform.db.read((s) => s.analytics.oldestEvent());
    if (oldest === null) return 0;
    from = Math.floor(oldest / DAY) * DAY;
  }
  let hours = 0;
  while (from < limit) {
    const dayStart = Math.floor(from / DAY) * DAY;
    const to = Math.min(limit, dayStart + DAY);
    const start = from;
    if (!(await platform.db.transaction((s) => s.analytics.rollUp(start, to, dayStart)))) break;
    hours += (to - from) / HOUR;
    from = to;
  }
  return hours;
}

/**
 * Deletes raw events older than the retention (`analyticsRawRetentionMonths`), never ones not rolled up yet, and
 * the visitor salts of past days. Events go by whole UTC days, so no visit is cut and reports find the raw events
 * whole from the oldest one's day on (sourceOf). Returns the events deleted.
 */
export async function purgeAnalytics(platform: Platform, now = Date.now()): Promise<number> {
  const rolledTo = await platform.db.read((s) => s.analytics.rolledTo());
  const cut = Math.min(monthsBefore(now, platform.config.analyticsRawRetentionMonths), rolledTo);
  const before = Math.floor(cut / DAY) * DAY;
  const today = new Date(now).toISOString().slice(0, 10);
  await platform.db.transaction((s) => s.analytics.deleteSaltsBefore(today));
  let purged = 0;
  for (;;) {
    const gone = await platform.db.transaction((s) => s.analytics.purgeEventsBefore(before, PURGE_BATCH));
    purged += gone;
    if (gone < PURGE_BATCH) return purged;
  }
}
