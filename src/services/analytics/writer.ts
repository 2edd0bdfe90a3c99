import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../../db/database.ts";
import type { EVENT_KEYS, VisitorPosition } from "../../db/stores/analytics.ts";
import { ENGAGEMENT, PAGEVIEW } from "../../db/stores/analytics-sql.ts";
import { newId } from "../../kernel/ids.ts";
import { type Client, clientOf, DIRECT, noNul, pathOf, sourceOf, type Utm, utmOf } from "./dimensions.ts";
import { countryLookup } from "./geoip.ts";
import { HIT_FIELDS } from "./hit-batch.ts";
import { ipMatcher } from "./settings.ts";

/** A visit ends after 30 minutes without an event. */
export const VISIT_TIMEOUT_MS = 30 * 60 * 1000;
const SETTINGS_TTL_MS = 30_000;
const DAY_MS = 86_400_000;
/** Visitors (of a website, day, address and agent) kept in memory: two generations of this many. */
const VISITORS = 50_000;
/** Values a row takes (see `EVENT_KEYS`). */
const WIDTH: (typeof EVENT_KEYS)["length"] = 19;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const NO_UTM: Utm = { utmSource: "", utmMedium: "", utmCampaign: "", utmTerm: "", utmContent: "" };

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

/** Writes a batch of hits (`flatHits`): parses, excludes, hashes visitors, continues visits, inserts. */
export type BatchWriter = (batch: readonly unknown[]) => Promise<BatchResult>;

interface Visit {
  sessionId: string;
  ts: number;
  source: string;
  referrer: string;
  utm: Utm;
}

/**
 * One (website, day, address, user agent): what a repeat hit needs, found with one lookup. `client` null is a bot
 * or crawler (left out); `visit` is its current visit (undefined until loaded or started).
 */
interface Visitor {
  websiteId: string;
  /** The last batch that wrote one of its events (its visit is saved once a batch). */
  batch: number;
  client: Client | null;
  visitorId: string;
  country: string;
  visit: Visit | undefined;
}

/** What `analytics_visits` keeps of a visitor with a visit. */
const positionOf = ({ websiteId, visitorId, visit }: Visitor): VisitorPosition => ({
  websiteId,
  visitorId,
  sessionId: visit!.sessionId,
  ts: visit!.ts,
  source: visit!.source,
  referrer: visit!.referrer,
  ...visit!.utm,
});

/**
 * A bounded map costing one lookup a hit (an LRU costs a delete and an insert): entries live in the current
 * generation or the previous one; a full current generation becomes the previous one, dropping what was not read
 * meanwhile.
 */
class Generations<V> {
  #current = new Map<string, V>();
  #previous = new Map<string, V>();
  constructor(readonly size: number) {}

  get(key: string): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined) return value;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: string, value: V): void {
    if (this.#current.size >= this.size) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
  }

  delete(key: string): void {
    this.#current.delete(key);
    this.#previous.delete(key);
  }
}

/**
 * The batch writer of one process (on the collector's worker thread, or inline): it keeps the day's salt, each
 * website's excluded addresses (30 s) and its recent visitors in memory (visitor id, parsed client, country and
 * visit, under one key), so a repeat visitor costs one lookup and a batch one insert transaction, plus one read for
 * visitors it has not seen lately. Rows go to the insert as flat values. `geoip` is a MaxMind DB file's bytes
 * (countries stay empty without).
 */
export function createBatchWriter(db: Database, geoip?: Uint8Array): BatchWriter {
  const countryOf = geoip ? countryLookup(geoip) : undefined;
  const salts = new Map<string, string>();
  const settings = new Map<string, { at: number; excluded: (ip: string) => boolean }>();
  const visitors = new Generations<Visitor>(VISITORS);
  const paths = new Map<string, string>();
  let batches = 0;
  let swept = 0;

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

  /** Loads the recent visits of visitors not in memory (another node, or before a restart, saw them last). */
  async function loadVisits(unknown: readonly Visitor[], now: number) {
    const positions: VisitorPosition[] = await db.read((s) =>
      s.analytics.recentPositions(
        unknown.map((v) => v.websiteId),
        unknown.map((v) => v.visitorId),
        now - VISIT_TIMEOUT_MS * 2,
      ),
    );
    const byId = new Map(unknown.map((v) => [`${v.websiteId}\n${v.visitorId}`, v]));
    for (const p of positions.sort((a, b) => a.ts - b.ts)) {
      const visitor = byId.get(`${p.websiteId}\n${p.visitorId}`);
      if (!visitor) continue;
      const { utmSource, utmMedium, utmCampaign, utmTerm, utmContent } = p;
      const utm = { utmSource, utmMedium, utmCampaign, utmTerm, utmContent };
      visitor.visit = { sessionId: p.sessionId, ts: p.ts, source: p.source, referrer: p.referrer, utm };
    }
  }

  const pathOfCached = (pathname: string) => {
    let path = paths.get(pathname);
    if (path === undefined) {
      if (paths.size >= 1_000) paths.clear();
      path = pathOf(pathname);
      paths.set(pathname, path);
    }
    return path;
  };

  return async (batch) => {
    const now = Date.now();
    const hits = Math.floor(batch.length / HIT_FIELDS);
    const excluders = new Map<string, (ip: string) => boolean>();
    /** Visitors new to memory (their keys are forgotten again when reading their visits fails). */
    const unknown: [string, Visitor][] = [];
    let dayFrom = 0;
    let dayTo = 0;
    let day = "";
    let salt = "";
    let sorted = true;
    let excluded = 0;
    /** Each hit's visitor (undefined when left out), and the rows' values. */
    const of = new Array<Visitor | undefined>(hits);
    const values: unknown[] = [];
    for (let h = 0, o = 0; h < hits; h++, o += HIT_FIELDS) {
      const websiteId = batch[o] as string;
      const ts = batch[o + 1] as number;
      const ip = batch[o + 6] as string;
      const userAgent = batch[o + 7] as string;
      if (h > 0 && ts < (batch[o + 1 - HIT_FIELDS] as number)) sorted = false;
      const sameDay = ts >= dayFrom && ts < dayTo;
      // The previous hit's visitor on the same day (the batch holds each distinct text once): no key, no lookup.
      const o0 = o - HIT_FIELDS;
      if (
        sameDay &&
        h > 0 &&
        websiteId === batch[o0] &&
        ip === batch[o0 + 6] &&
        userAgent === batch[o0 + 7]
      ) {
        of[h] = of[h - 1];
        if (of[h] === undefined) excluded++;
        continue;
      }
      if (!sameDay) {
        day = utcDay(ts);
        dayFrom = Date.parse(day);
        dayTo = dayFrom + DAY_MS;
        salt = salts.get(day) ?? (await saltOf(day));
      }
      const key = `${websiteId}\n${day}\n${ip}\n${userAgent}`;
      let visitor = visitors.get(key);
      if (!visitor) {
        const client = clientOf(userAgent);
        const visitorId = client
          ? createHash("sha256")
              .update(`${salt}\n${websiteId}\n${ip}\n${userAgent}`)
              .digest("base64url")
              .slice(0, 22)
          : "";
        const country = (client && countryOf?.(ip)?.toUpperCase().slice(0, 2)) || "";
        visitor = { websiteId, batch: 0, client, visitorId, country, visit: undefined };
        visitors.set(key, visitor);
        if (client) unknown.push([key, visitor]);
      }
      of[h] = undefined;
      if (!visitor.client) {
        excluded++;
        continue;
      }
      let excludes = excluders.get(websiteId);
      if (!excludes) {
        excludes = await excluderOf(websiteId, now);
        excluders.set(websiteId, excludes);
      }
      if (excludes(ip)) excluded++;
      else of[h] = visitor;
    }
    if (excluded === hits) return { written: 0, excluded };
    if (unknown.length > 0) {
      try {
        await loadVisits(
          unknown.map(([, visitor]) => visitor),
          now,
        );
      } catch (error) {
        for (const [key] of unknown) visitors.delete(key);
        throw error;
      }
    }
    const order = sorted
      ? undefined
      : Array.from({ length: hits }, (_, h) => h).sort(
          (a, b) => (batch[a * HIT_FIELDS + 1] as number) - (batch[b * HIT_FIELDS + 1] as number),
        );
    let rows = 0;
    const batchNo = ++batches;
    const touched: Visitor[] = [];
    for (let n = 0; n < hits; n++) {
      const h = order ? order[n]! : n;
      const visitor = of[h];
      if (!visitor) continue;
      const client = visitor.client!;
      const o = h * HIT_FIELDS;
      const ts = batch[o + 1] as number;
      const name = batch[o + 3] as string;
      const search = batch[o + 5] as string;
      const utm = search ? utmOf(search) : NO_UTM;
      const from = sourceOf(batch[o + 8] as string | null, batch[o + 2] as string, utm.utmSource);
      const fresh = from.source !== DIRECT && !from.internal;
      let visit = visitor.visit;
      if (
        !visit ||
        ts - visit.ts > VISIT_TIMEOUT_MS ||
        (fresh && name === PAGEVIEW && from.referrer !== visit.referrer)
      ) {
        visit = { sessionId: newId(), ts, source: from.source, referrer: from.referrer, utm };
        visitor.visit = visit;
      }
      if (ts > visit.ts) visit.ts = ts;
      if (visitor.batch !== batchNo) {
        visitor.batch = batchNo;
        touched.push(visitor);
      }
      // In the order of EVENT_KEYS.
      let at = rows * WIDTH;
      values[at++] = visitor.websiteId;
      values[at++] = ts;
      values[at++] = noNul(name);
      values[at++] = pathOfCached(batch[o + 4] as string);
      values[at++] = visitor.visitorId;
      values[at++] = visit.sessionId;
      values[at++] = visit.source;
      values[at++] = visit.referrer;
      values[at++] = visit.utm.utmSource;
      values[at++] = visit.utm.utmMedium;
      values[at++] = visit.utm.utmCampaign;
      values[at++] = visit.utm.utmTerm;
      values[at++] = visit.utm.utmContent;
      values[at++] = client.device;
      values[at++] = client.browser;
      values[at++] = client.os;
      values[at++] = visitor.country;
      values[at++] =
        name === ENGAGEMENT ? Math.max(0, Math.min((batch[o + 9] as number) ?? 0, 86_400_000)) : 0;
      values[at] = propsOf(batch[o + 10] as Record<string, string> | null);
      rows++;
    }
    const sweep = now - swept > VISIT_TIMEOUT_MS;
    if (sweep) swept = now;
    await db.transaction(async (s) => {
      await s.analytics.insertEventValues(values, rows);
      await s.analytics.saveVisits(touched.map(positionOf));
      if (sweep) await s.analytics.deleteVisitsBefore(now - VISIT_TIMEOUT_MS * 2);
    });
    return { written: rows, excluded };
  };
}
