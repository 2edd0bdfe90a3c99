import type { Hit } from "./writer.ts";

/** Fields a hit takes in a batch. */
export const HIT_FIELDS = 11;

/**
 * Appends a hit to a batch: its fields one after another in a flat array, no object kept per hit. A batch goes to
 * the writer thread as one JSON string (one copy, instead of the structured clone of an object per hit).
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

/** The hits of a batch `appendHit` filled (or of its JSON, parsed). */
export function hitsOf(batch: readonly unknown[]): Hit[] {
  const hits: Hit[] = [];
  for (let i = 0; i + HIT_FIELDS <= batch.length; i += HIT_FIELDS) {
    hits.push({
      websiteId: batch[i] as string,
      ts: batch[i + 1] as number,
      host: batch[i + 2] as string,
      name: batch[i + 3] as string,
      pathname: batch[i + 4] as string,
      search: batch[i + 5] as string,
      ip: batch[i + 6] as string,
      userAgent: batch[i + 7] as string,
      referer: batch[i + 8] as string | null,
      engagementMs: batch[i + 9] as number,
      props: batch[i + 10] as Record<string, string> | null,
    });
  }
  return hits;
}
