import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";
import type { AnalyticsEventRecord, VisitorPosition } from "../../db/stores/analytics.ts";
import { ENGAGEMENT, PAGEVIEW } from "../../db/stores/analytics-sql.ts";
import { WeightedLru } from "../../hosting/lru.ts";
import { newId } from "../../kernel/ids.ts";
import { type Client, clientOf, DIRECT, pathOf, sourceOf, utmOf } from "./dimensions.ts";
import { ipMatcher } from "./settings.ts";

/** A page view or event as the request path hands it over: copied strings only, nothing parsed yet. */
export interface Hit {
  websiteId: string;
  ts: number;
  /** The site's host (a referrer from it is internal navigation). */
  host: string;
  name: string;
  pathname: string;
  search: string;
  ip: string;
  userAgent: string;
  referer: string | null;
  engagementMs?: number;
  props?: Record<string, string> | null;
}

/** The request headers the collector reads. */
export interface HitHeaders {
  get(name: string): string | null;
}

/** The cookie a site's owner sets on their own browser (at `/_service/analytics/ignore`) to be left out. */
export const IGNORE_COOKIE = "sitewright_analytics_ignore";

export interface CollectorOptions {
  /** Most hits waiting to be written; further hits are dropped and counted (default 50,000). */
  maxBuffered?: number;
  /** A flush starts once this many wait (default 1,000), else every `flushIntervalMs` (default 1,000). */
  batchSize?: number;
  flushIntervalMs?: number;
  /** The country (ISO 3166 alpha-2) of an address, when a GeoIP database is configured. */
  countryOf?: (ip: string) => string | undefined;
  log?: { error(message: string, ...details: unknown[]): void };
}

export interface CollectorStats {
  /** Hits accepted into the buffer, written, dropped because the buffer was full, left out (bots, excluded). */
  accepted: number;
  written: number;
  dropped: number;
  excluded: number;
}

/** Records live-site traffic in batches, off the request path. */
export interface Collector {
  /** Whether a request may be counted at all: not Do Not Track, Global Privacy Control, a prefetch or an opted-out owner. */
  countable(headers: HitHeaders): boolean;
  /** Queues a hit (never blocks, never throws); false when it was dropped because the buffer is full. */
  record(hit: Hit): boolean;
  /** Writes everything queued so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is queued (a clean shutdown loses nothing). */
  close(): Promise<void>;
  readonly stats: CollectorStats;
}

/** A visit ends after 30 minutes without an event. */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;
const SETTINGS_TTL_MS = 30_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Visit {
  sessionId: string;
  ts: number;
  source: string;
  referrer: string;
  utm: Pick<AnalyticsEventRecord, "utmSource" | "utmMedium" | "utmCampaign" | "utmTerm" | "utmContent">;
}

export function createCollector(db: Database, options: CollectorOptions = {}): Collector {
  const maxBuffered = options.maxBuffered ?? 50_000;
  const batchSize = options.batchSize ?? 1_000;
  const stats: CollectorStats = { accepted: 0, written: 0, dropped: 0, excluded: 0 };
  let buffer: Hit[] = [];
  let running: Promise<void> = Promise.resolve();
  let scheduled = false;
  const salts = new Map<string, string>();
  const settings = new Map<string, { at: number; excluded: (ip: string) => boolean }>();
  const visits = new WeightedLru<string, Visit>(100_000, 1);

  async function saltOf(day: string): Promise<string> {
    const known = salts.get(day);
    if (known) return known;
    const salt = await db.transaction(async (s) => {
      const value = await s.analytics.salt(day, randomBytes(32).toString("base64url"));
      await s.analytics.deleteSaltsBefore(day);
      return value;
    });
    for (const old of salts.keys()) if (old < day) salts.delete(old);
    salts.set(day, salt);
    return salt;
  }

  async function excluderOf(websiteId: string, now: number) {
    const cached = settings.get(websiteId);
    if (cached && now - cached.at < SETTINGS_TTL_MS) return cached.excluded;
    const row = await db.read((s) => s.analytics.settings(websiteId));
    const excluded = ipMatcher(row?.excludedIpRanges ?? []);
    settings.set(websiteId, { at: now, excluded });
    return excluded;
  }

  async function write(hits: Hit[]): Promise<void> {
    const now = Date.now();
    const kept: { hit: Hit; visitorId: string; client: Client }[] = [];
    for (const hit of hits) {
      const client = clientOf(hit.userAgent);
      if (!client || (await excluderOf(hit.websiteId, now))(hit.ip)) {
        stats.excluded++;
        continue;
      }
      const salt = await saltOf(utcDay(hit.ts));
      const visitorId = createHash("sha256")
        .update(`${salt}\n${hit.websiteId}\n${hit.ip}\n${hit.userAgent}`)
        .digest("base64url")
        .slice(0, 22);
      kept.push({ hit, visitorId, client });
    }
    if (kept.length === 0) return;
    const key = (websiteId: string, visitorId: string) => `${websiteId}\n${visitorId}`;
    const unknown = kept.filter(({ hit, visitorId }) => !visits.get(key(hit.websiteId, visitorId)));
    if (unknown.length > 0) {
      const positions: VisitorPosition[] = await db.read((s) =>
        s.analytics.recentPositions(
          unknown.map((k) => k.hit.websiteId),
          unknown.map((k) => k.visitorId),
          now - VISIT_TIMEOUT_MS * 2,
        ),
      );
      for (const p of positions.sort((a, b) => a.ts - b.ts)) {
        visits.set(
          key(p.websiteId, p.visitorId),
          {
            ...p,
            utm: {
              utmSource: p.utmSource,
              utmMedium: p.utmMedium,
              utmCampaign: p.utmCampaign,
              utmTerm: p.utmTerm,
              utmContent: p.utmContent,
            },
          },
          1,
        );
      }
    }
    const rows: AnalyticsEventRecord[] = [];
    for (const { hit, visitorId, client } of kept.sort((a, b) => a.hit.ts - b.hit.ts)) {
      const utm = utmOf(hit.search);
      const from = sourceOf(hit.referer, hit.host, utm.utmSource);
      const k = key(hit.websiteId, visitorId);
      let visit = visits.get(k);
      const fresh = from.source !== DIRECT && !from.internal;
      if (
        !visit ||
        hit.ts - visit.ts > VISIT_TIMEOUT_MS ||
        (fresh && hit.name === PAGEVIEW && from.referrer !== visit.referrer)
      ) {
        visit = { sessionId: newId(), ts: hit.ts, source: from.source, referrer: from.referrer, utm };
      }
      visit.ts = Math.max(visit.ts, hit.ts);
      visits.set(k, visit, 1);
      rows.push({
        id: newId(),
        websiteId: hit.websiteId,
        ts: hit.ts,
        name: hit.name,
        path: pathOf(hit.pathname),
        visitorId,
        sessionId: visit.sessionId,
        source: visit.source,
        referrer: visit.referrer,
        ...visit.utm,
        ...client,
        country: options.countryOf?.(hit.ip)?.toUpperCase().slice(0, 2) ?? "",
        engagementMs: hit.name === ENGAGEMENT ? Math.max(0, Math.min(hit.engagementMs ?? 0, 86_400_000)) : 0,
        props: hit.props && Object.keys(hit.props).length > 0 ? hit.props : null,
      });
    }
    await db.transaction((s) => s.analytics.insertEvents(rows));
    stats.written += rows.length;
  }

  function flush(): Promise<void> {
    running = running.then(async () => {
      scheduled = false;
      while (buffer.length > 0) {
        const hits = buffer.slice(0, batchSize);
        buffer = buffer.slice(hits.length);
        try {
          await write(hits);
        } catch (error) {
          stats.dropped += hits.length;
          options.log?.error("analytics: writing a batch failed", error);
        }
      }
    });
    return running;
  }

  const timer = setInterval(() => {
    if (buffer.length > 0) void flush();
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
      if (buffer.length >= maxBuffered) {
        stats.dropped++;
        return false;
      }
      buffer.push(hit);
      stats.accepted++;
      if (buffer.length >= batchSize && !scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
