import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";
import type { AnalyticsEventRecord, VisitorPosition } from "../../db/stores/analytics.ts";
import { ENGAGEMENT, PAGEVIEW } from "../../db/stores/analytics-sql.ts";
import { WeightedLru } from "../../hosting/lru.ts";
import { newId } from "../../kernel/ids.ts";
import { type Client, clientOf, DIRECT, noNul, pathOf, sourceOf, utmOf } from "./dimensions.ts";
import { countryLookup } from "./geoip.ts";
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

/** A visit ends after 30 minutes without an event. */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;
const SETTINGS_TTL_MS = 30_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A custom event's properties as stored (null for none). */
const propsOf = (props: Record<string, string> | null | undefined) =>
  props && Object.keys(props).length > 0
    ? Object.fromEntries(Object.entries(props).map(([key, value]) => [noNul(key), noNul(value)]))
    : null;

/** What writing one batch did: rows written, hits left out (bots, excluded addresses). */
export interface BatchResult {
  written: number;
  excluded: number;
}

/** Writes batches of hits: parses, excludes, hashes visitors, continues visits, inserts. */
export type BatchWriter = (hits: readonly Hit[]) => Promise<BatchResult>;

interface Visit {
  sessionId: string;
  ts: number;
  source: string;
  referrer: string;
  utm: Pick<AnalyticsEventRecord, "utmSource" | "utmMedium" | "utmCampaign" | "utmTerm" | "utmContent">;
}

/**
 * The batch writer of one process (on the collector's worker thread, or inline): it keeps the day's salt, each
 * website's excluded addresses (30 s) and recent visits in memory, so a batch costs one insert transaction plus
 * one read for visitors it has not seen lately. `geoip` is a MaxMind DB file's bytes (countries stay empty without).
 */
export function createBatchWriter(db: Database, geoip?: Uint8Array): BatchWriter {
  const countryOf = geoip ? countryLookup(geoip) : undefined;
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

  const key = (websiteId: string, visitorId: string) => `${websiteId}\n${visitorId}`;

  /** Loads the recent visits of visitors not in memory (another node, or before a restart, saw them last). */
  async function loadVisits(kept: readonly { hit: Hit; visitorId: string }[], now: number) {
    const unknown = kept.filter(({ hit, visitorId }) => !visits.get(key(hit.websiteId, visitorId)));
    if (unknown.length === 0) return;
    const positions: VisitorPosition[] = await db.read((s) =>
      s.analytics.recentPositions(
        unknown.map((k) => k.hit.websiteId),
        unknown.map((k) => k.visitorId),
        now - VISIT_TIMEOUT_MS * 2,
      ),
    );
    for (const p of positions.sort((a, b) => a.ts - b.ts)) {
      const { utmSource, utmMedium, utmCampaign, utmTerm, utmContent } = p;
      const utm = { utmSource, utmMedium, utmCampaign, utmTerm, utmContent };
      visits.set(key(p.websiteId, p.visitorId), { ...p, utm }, 1);
    }
  }

  return async (hits) => {
    const now = Date.now();
    const kept: { hit: Hit; visitorId: string; client: Client }[] = [];
    for (const hit of hits) {
      const client = clientOf(hit.userAgent);
      if (!client || (await excluderOf(hit.websiteId, now))(hit.ip)) continue;
      const salt = await saltOf(utcDay(hit.ts));
      const visitorId = createHash("sha256")
        .update(`${salt}\n${hit.websiteId}\n${hit.ip}\n${hit.userAgent}`)
        .digest("base64url")
        .slice(0, 22);
      kept.push({ hit, visitorId, client });
    }
    const excluded = hits.length - kept.length;
    if (kept.length === 0) return { written: 0, excluded };
    await loadVisits(kept, now);
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
        name: noNul(hit.name),
        path: pathOf(hit.pathname),
        visitorId,
        sessionId: visit.sessionId,
        source: visit.source,
        referrer: visit.referrer,
        ...visit.utm,
        ...client,
        country: countryOf?.(hit.ip)?.toUpperCase().slice(0, 2) ?? "",
        engagementMs: hit.name === ENGAGEMENT ? Math.max(0, Math.min(hit.engagementMs ?? 0, 86_400_000)) : 0,
        props: propsOf(hit.props),
      });
    }
    await db.transaction((s) => s.analytics.insertEvents(rows));
    return { written: rows.length, excluded };
  };
}
