import { TEMPORARY_FILE_GRACE_MS } from "../blobs/index.ts";
import type { PurgeCounts, RetentionPolicy } from "../db/stores/housekeeping.ts";
import type { Platform } from "../kernel/platform.ts";
import { kickMailQueue } from "../mail/queue.ts";
import { purgeAnalytics, rollUpAnalytics } from "./analytics/housekeeping.ts";
import { backfillRichTextHtml } from "./cms/stored-html.ts";
import { recheckDomains } from "./domains/recheck.ts";
import { releaseExpiredAiCredits } from "./media/credits.ts";

const DAY = 24 * 60 * 60 * 1000;

/** What is kept: OAuth codes and tokens 30 days past expiry (replays still revoke), resets 1 day, mail 30 days. */
export const retention: RetentionPolicy = {
  oauthAfterExpiry: 30 * DAY,
  resetsAfterExpiry: DAY,
  mail: 30 * DAY,
};

/** Source texts no draft or deployment references are deleted once untouched this long (a write in flight keeps its own). */
export const CONTENT_GRACE_MS = 60 * 60 * 1000;

/**
 * Blobs no row references are removed once last put longer ago than this: a publish in flight (on any node) puts
 * its blobs before it references them, so it has this long to commit.
 */
export const BLOB_GRACE_MS = 60 * 60 * 1000;

/** Server function runs (with their logs) are kept this long. */
export const FUNCTION_RUN_RETENTION_MS = 30 * DAY;

export interface HousekeepingReport extends PurgeCounts {
  sourceContents: number;
  /** Temporary blob files of puts a crash interrupted, older than TEMPORARY_FILE_GRACE_MS. */
  blobTemporaryFiles: number;
  /** Blobs no row referenced any more, last put before BLOB_GRACE_MS. */
  blobs: number;
  /** Old slugs whose redirect expired. */
  slugRedirects: number;
  /** Custom domains re-verified (those not checked for the configured interval). */
  domainsChecked: number;
  /** Hours of analytics rolled up, and raw analytics events deleted past their retention. */
  analyticsHoursRolledUp: number;
  analyticsEventsPurged: number;
  /** Server function runs older than FUNCTION_RUN_RETENTION_MS. */
  functionRuns: number;
  /** CMS items whose richText HTML was rendered and stored (rows written before it was stored). */
  richTextBackfilled: number;
  /** AI credit reservations past their expiry (a crash between reserve and settle) given back. */
  aiCreditReservations: number;
}

/**
 * Deletes what has outlived its purpose: expired sessions, idempotency records, used reset links, old OAuth codes
 * and tokens, old outbox mail, source texts and blobs nothing references, temporary blob files crashes left
 * behind, expired slug redirects, server function runs past FUNCTION_RUN_RETENTION_MS and raw analytics events past their retention (once rolled up); rolls up analytics
 * hours, re-verifies custom domains due for it, releases expired AI credit reservations and stores the richText HTML of CMS items that have none yet
 * (backfillRichTextHtml). Idempotent and safe on every node at once.
 */
export async function runHousekeeping(platform: Platform, now = Date.now()): Promise<HousekeepingReport> {
  const purged = await platform.db.transaction((stores) => stores.housekeeping.purgeExpired(now, retention));
  const sourceContents = await platform.db.transaction((stores) =>
    stores.sourceFiles.sweepContents(now - CONTENT_GRACE_MS),
  );
  const blobTemporaryFiles = await sweepBlobTemporaryFiles(platform, now);
  const slugRedirects = await platform.db.transaction((stores) => stores.domains.purgeSlugRedirects(now));
  const domainsChecked = await recheckDomains(platform, now);
  // Rollups first: raw events are only deleted once rolled up.
  const analyticsHoursRolledUp = await rollUpAnalytics(platform, now);
  const analyticsEventsPurged = await purgeAnalytics(platform, now);
  const functionRuns = await platform.db.transaction((stores) =>
    stores.functionRuns.purge(now - FUNCTION_RUN_RETENTION_MS),
  );
  return {
    ...purged,
    sourceContents,
    blobTemporaryFiles,
    blobs: await sweepBlobs(platform, now),
    slugRedirects,
    domainsChecked,
    analyticsHoursRolledUp,
    analyticsEventsPurged,
    functionRuns,
    richTextBackfilled: await backfillRichTextHtml(platform.db),
    aiCreditReservations: await releaseExpiredAiCredits(platform.db, now),
  };
}

/**
 * Mark and sweep of the blob store: blobs last put before the grace period that no row references
 * (stores.housekeeping.referencedBlobs) are removed. Returns how many.
 */
export async function sweepBlobs(platform: Platform, now = Date.now()): Promise<number> {
  const before = now - BLOB_GRACE_MS;
  let removed = 0;
  for await (const names of platform.blobs.listStale(before)) {
    const referenced = await platform.db.read((stores) => stores.housekeeping.referencedBlobs(names));
    for (const name of names) {
      if (!referenced.has(name) && (await platform.blobs.removeStale(name, before))) removed++;
    }
  }
  return removed;
}

/** Deletes the blob store's temporary files older than the grace period; returns how many. */
export function sweepBlobTemporaryFiles(platform: Platform, now = Date.now()): Promise<number> {
  return platform.blobs.sweepTemporaryFiles(now - TEMPORARY_FILE_GRACE_MS);
}

/**
 * Sweeps the blob store's stale temporary files at once (what a crash of the last run left) and starts the
 * rich-text HTML backfill (rows of an older version), then runs
 * housekeeping every `intervalMs` (first run after `firstDelayMs`); returns the function that stops it.
 */
export function scheduleHousekeeping(
  platform: Platform,
  intervalMs = 15 * 60 * 1000,
  firstDelayMs = 60 * 1000,
): () => void {
  sweepBlobTemporaryFiles(platform)
    .then((removed) => {
      if (removed > 0) platform.log.info(`removed ${removed} temporary blob file(s) of interrupted writes`);
    })
    .catch((error) => platform.log.error("blob sweep failed", error));
  backfillRichTextHtml(platform.db)
    .then((stored) => {
      if (stored > 0) platform.log.info(`stored the rich-text HTML of ${stored} CMS item(s)`);
    })
    .catch((error) => platform.log.error("rich-text backfill failed", error));
  let timer: NodeJS.Timeout;
  // Queued mail a stopped process left behind (a crash after a form post was acknowledged) goes out at start.
  kickMailQueue(platform);
  const run = () => {
    runHousekeeping(platform)
      .catch((error) => platform.log.error("housekeeping failed", error))
      .then(() => kickMailQueue(platform))
      .finally(() => {
        timer = setTimeout(run, intervalMs);
        timer.unref();
      });
  };
  timer = setTimeout(run, firstDelayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
