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

/** Fields a hit takes in a batch. */
export const HIT_FIELDS = 11;

/**
 * Appends a hit to a batch: its fields one after another in a flat array, no object kept per hit. A batch goes to
 * the writer thread as one JSON string (one copy, instead of the structured clone of an object per hit), and the writer reads the
 * fields where they are (no object per hit there either).
 */
export function appendHit(batch: unknown[], hit: Hit): void {
  batch.push(
    hit.websiteId,
    hit.ts,
    hit.host,
    hit.name,
    hit.pathname,
    hit.search,
    hit.ip,
    hit.userAgent,
    hit.referer,
    hit.engagementMs ?? 0,
    hit.props ?? null,
  );
}
