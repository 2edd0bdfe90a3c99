import type { Database } from "../../db/database.ts";
import { flatHits, type Hit, HitBatch } from "./hit-batch.ts";
import { createBatchWriter } from "./writer.ts";
import { threadWriter } from "./writer-thread.ts";

export type { Hit } from "./hit-batch.ts";

/** The request headers the collector reads. */
export interface HitHeaders {
  get(name: string): string | null;
}

/** The cookie a site's owner sets on their own browser (at `/_service/analytics/ignore`) to be left out. */
export const IGNORE_COOKIE = "sitewright_analytics_ignore";

export interface CollectorOptions {
  /** Most hits waiting to be written; further hits are dropped and counted (default 50,000). */
  maxBuffered?: number;
  /**
   * Hits per batch (default 1,000): whole batches are written as soon as they are queued, the rest every
   * `flushIntervalMs` (default 1,000).
   */
  batchSize?: number;
  flushIntervalMs?: number;
  /**
   * The URL the database was opened with (a SQLite file or PostgreSQL): batches are then written on a worker thread
   * with its own connection to it. Without it (or for `:memory:`) they are written on this thread.
   */
  databaseUrl?: string;
  /** A MaxMind DB file's bytes (`.mmdb`): page views then get their client's country (see geoip.ts). */
  geoip?: Uint8Array;
  log?: { error(message: string, ...details: unknown[]): void };
}

export interface CollectorStats {
  /** Hits accepted into the buffer, written, dropped because the buffer was full, left out (bots, excluded). */
  accepted: number;
  written: number;
  dropped: number;
  excluded: number;
  /** Batches handed to the writer (`written ÷ batches` is the batch size traffic got). */
  batches: number;
}

/** Records live-site traffic in batches, off the request path. */
export interface Collector {
  /** Whether a request may be counted at all: not Do Not Track, Global Privacy Control, a prefetch or an opted-out owner. */
  countable(headers: HitHeaders): boolean;
  /** Queues a hit (never blocks, never throws); false when it was dropped because the buffer is full. */
  record(hit: Hit): boolean;
  /** Writes everything queued so far (not what arrives while it writes). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is queued (a clean shutdown loses nothing). */
  close(): Promise<void>;
  readonly stats: CollectorStats;
}

export function createCollector(db: Database, options: CollectorOptions = {}): Collector {
  const maxBuffered = options.maxBuffered ?? 50_000;
  const batchSize = options.batchSize ?? 1_000;
  const stats: CollectorStats = { accepted: 0, written: 0, dropped: 0, excluded: 0, batches: 0 };
  /** The queued hits in batches of `batchSize` (all but the last full): recording one keeps nothing of its own. */
  const queue: HitBatch[] = [];
  let queued = 0;
  let running: Promise<void> = Promise.resolve();
  let scheduled = false;
  const thread =
    options.databaseUrl && options.databaseUrl !== ":memory:"
      ? threadWriter(options.databaseUrl, options.geoip)
      : undefined;
  const inline = thread ? undefined : createBatchWriter(db, options.geoip);
  const write = (batch: HitBatch) => thread?.write(batch) ?? inline!(flatHits(batch));
  /** Hits handed to the writer and not answered yet: they count against `maxBuffered` too. */
  let writing = 0;
  /** A batch already handed over (the writer copied or read it), cleared for the next hits. */
  let spare: HitBatch | undefined;

  /** The next batch: the oldest queued (full unless it is the only one). */
  function take(): HitBatch {
    const batch = queue.shift()!;
    queued -= batch.count;
    writing = batch.count;
    stats.batches++;
    return batch;
  }

  /**
   * Writes queued hits, one batch at a time: `full` only whole batches (what a busy site's traffic schedules, so
   * each write carries `batchSize` hits instead of whatever arrived during the previous write), `queued` what is
   * queued when it starts (the timer, `flush()`), `all` until nothing is left (shutdown).
   */
  function drain(mode: "full" | "queued" | "all"): Promise<void> {
    running = running.then(async () => {
      scheduled = false;
      let left = mode === "queued" ? queued : 0;
      while (queued >= batchSize || left > 0 || (mode === "all" && queued > 0)) {
        const batch = take();
        left -= writing;
        try {
          const written = write(batch);
          batch.clear();
          spare = batch;
          const done = await written;
          stats.written += done.written;
          stats.excluded += done.excluded;
        } catch (error) {
          stats.dropped += writing;
          options.log?.error("analytics: writing a batch failed", error);
        } finally {
          writing = 0;
        }
      }
    });
    return running;
  }
  const flush = () => drain("queued");

  const timer = setInterval(() => {
    if (queued > 0) void flush();
  }, options.flushIntervalMs ?? 1_000);
  timer.unref();

  return {
    stats,
    countable(headers) {
      if (headers.get("dnt") === "1" || headers.get("sec-gpc") === "1") return false;
      const purpose = headers.get("sec-purpose") ?? headers.get("purpose");
      if (purpose?.includes("prefetch")) return false;
      return !headers.get("cookie")?.includes(`${IGNORE_COOKIE}=1`);
    },
    record(hit) {
      if (queued + writing >= maxBuffered) {
        stats.dropped++;
        return false;
      }
      let last = queue.at(-1);
      if (!last || last.count === batchSize) {
        last = spare ?? new HitBatch(batchSize);
        spare = undefined;
        queue.push(last);
      }
      last.add(hit);
      queued++;
      stats.accepted++;
      if (queued >= batchSize && !scheduled) {
        scheduled = true;
        setImmediate(() => void drain("full"));
      }
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await drain("all");
      await thread?.close();
    },
  };
}
