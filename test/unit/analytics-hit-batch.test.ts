import { describe, expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { flatHits, HIT_FIELDS, type Hit, HitBatch } from "../../src/services/analytics/hit-batch.ts";

const agent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36";
/** A new string object with `text`'s characters, as each request's parser makes its own. */
const copy = (text: string) => Buffer.from(text).toString();

describe("a batch of hits", () => {
  it("keeps each distinct text once and gives every hit's fields back in order", () => {
    const websiteId = `web_${newId().slice(-8)}`;
    /** A page view at `ts` from one browser (each field a fresh copy), with `changes`. */
    const hit = (ts: number, changes: Partial<Hit> = {}): Hit => ({
      websiteId,
      ts,
      host: copy("a.example"),
      name: "pageview",
      pathname: copy("/"),
      search: "",
      ip: copy("10.0.0.1"),
      userAgent: copy(agent),
      referer: null,
      ...changes,
    });
    const hits: Hit[] = [
      hit(1_700_000_000_001),
      hit(1_700_000_000_002, { referer: copy("https://b.example/") }),
      hit(1_700_000_000_003, {
        name: "signup",
        pathname: copy("/join"),
        search: "?x=1",
        ip: copy("10.0.0.2"),
        engagementMs: 0,
        props: { plan: "pro" },
      }),
      hit(1_700_000_000_004, { name: "engagement", engagementMs: 1234 }),
    ];
    const batch = new HitBatch(8);
    for (const hit of hits) batch.add(hit);
    expect(batch.count).toBe(4);
    // websiteId, host, 3 names, 2 paths, 2 searches, 2 addresses, the agent, 1 referrer, 1 props object.
    expect(batch.table).toHaveLength(14);
    const flat = flatHits(batch);
    expect(flat).toHaveLength(4 * HIT_FIELDS);
    expect(flat).toEqual(
      hits.flatMap((hit) => [
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
      ]),
    );
  });

  it("is filled again after clear() as if new: no text, index or previous value of the hits before", () => {
    const websiteId = `web_${newId().slice(-8)}`;
    const hit = (ts: number, pathname: string, ip: string): Hit => ({
      websiteId,
      ts,
      host: "a.example",
      name: "pageview",
      pathname: copy(pathname),
      search: "",
      ip: copy(ip),
      userAgent: copy(agent),
      referer: null,
    });
    const batch = new HitBatch(4);
    batch.add(hit(1, "/old", "10.0.0.1"));
    batch.add(hit(2, "/old", "10.0.0.1"));
    batch.clear();
    expect(batch.count).toBe(0);
    expect(batch.table).toEqual([]);
    // The same path again first: it must get a new index in the new table (not the cleared batch's one).
    const again = [hit(3, "/old", "10.0.0.9"), hit(4, "/new", "10.0.0.9")];
    for (const h of again) batch.add(h);
    expect(batch.table).toHaveLength(8);
    expect(flatHits(batch)).toEqual(
      again.flatMap((h) => [h.websiteId, h.ts, h.host, h.name, h.pathname, "", h.ip, agent, null, 0, null]),
    );
  });
});
