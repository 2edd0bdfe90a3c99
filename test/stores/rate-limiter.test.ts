import { afterEach, describe, expect, it } from "vitest";
import { type BucketSpec, type Database, openDatabase, type RateLimiter } from "../../src/db/database.ts";
import { defaultConfig } from "../../src/kernel/platform.ts";
import { dialects, openTestDatabase, type TestDatabase } from "../support/databases.ts";

const buckets = defaultConfig().rateLimits;

/** Takes `count` times in a row and returns how many were allowed. */
async function takeMany(limiter: RateLimiter, key: string, spec: BucketSpec, count: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < count; i++) if ((await limiter.take(key, spec, 1)).allowed) allowed++;
  return allowed;
}

describe("rate limiter [sqlite, in-process, frozen clock]", () => {
  let t = 1_700_000_000_000;
  let database: TestDatabase | undefined;
  async function limiter(): Promise<RateLimiter> {
    database = await openTestDatabase("sqlite", { now: () => t });
    return database.db.rateLimiter;
  }
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
    t = 1_700_000_000_000;
  });

  it("matches the API contract's buckets: standard 2000 +100/s, expensive 200 +20/s", () => {
    expect(buckets.standard).toStrictEqual({ capacity: 2000, refillPerSecond: 100 });
    expect(buckets.expensive).toStrictEqual({ capacity: 200, refillPerSecond: 20 });
  });

  it("allows exactly the capacity, then refuses with a retry-after of at least one second", async () => {
    const rl = await limiter();
    expect(await takeMany(rl, "k", buckets.standard, 2000)).toBe(2000);
    const refused = await rl.take("k", buckets.standard, 1);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBe(1); // one token comes back in 10 ms
    expect((await rl.take("k", buckets.standard, 1)).allowed).toBe(false);
  });

  it("refills exactly the rate per elapsed second, never beyond the capacity", async () => {
    const rl = await limiter();
    expect(await takeMany(rl, "k", buckets.standard, 2001)).toBe(2000);
    t += 1_000;
    expect(await takeMany(rl, "k", buckets.standard, 101)).toBe(100);
    t += 250;
    expect(await takeMany(rl, "k", buckets.standard, 26)).toBe(25);
    t += 3_600_000;
    expect(await takeMany(rl, "k", buckets.standard, 2001)).toBe(2000);
  });

  it("applies the expensive bucket: 200 at once, 20 more per second", async () => {
    const rl = await limiter();
    expect(await takeMany(rl, "k", buckets.expensive, 201)).toBe(200);
    t += 1_000;
    expect(await takeMany(rl, "k", buckets.expensive, 21)).toBe(20);
    t += 49; // less than one token's worth (50 ms)
    const refused = await rl.take("k", buckets.expensive, 1);
    expect(refused).toStrictEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("reports the wait until the next token for slow buckets", async () => {
    const rl = await limiter();
    const slow = { capacity: 20, refillPerSecond: 0.2 };
    expect(await takeMany(rl, "ip", slow, 20)).toBe(20);
    expect(await rl.take("ip", slow, 1)).toStrictEqual({ allowed: false, retryAfterSeconds: 5 });
    t += 2_000;
    expect(await rl.take("ip", slow, 1)).toStrictEqual({ allowed: false, retryAfterSeconds: 3 });
    t += 3_000;
    expect(await rl.take("ip", slow, 1)).toStrictEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it("takes nothing at cost 0 but reports whether a token is available", async () => {
    const rl = await limiter();
    for (let i = 0; i < 50; i++) {
      expect(await rl.take("k", buckets.expensive, 0)).toStrictEqual({ allowed: true, retryAfterSeconds: 0 });
    }
    expect(await takeMany(rl, "k", buckets.expensive, 201)).toBe(200);
    const probe = await rl.take("k", buckets.expensive, 0);
    expect(probe.allowed).toBe(false);
    expect(probe.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    t += 50; // exactly one token back
    expect((await rl.take("k", buckets.expensive, 0)).allowed).toBe(true);
    expect((await rl.take("k", buckets.expensive, 0)).allowed).toBe(true);
    expect((await rl.take("k", buckets.expensive, 1)).allowed).toBe(true);
    expect((await rl.take("k", buckets.expensive, 0)).allowed).toBe(false);
  });

  it("gives tokens back up to the capacity, never beyond it", async () => {
    const rl = await limiter();
    const spec = { capacity: 3, refillPerSecond: 0.001 };
    expect(await takeMany(rl, "k", spec, 4)).toBe(3);
    await rl.give("k", spec, 1);
    expect(await takeMany(rl, "k", spec, 2)).toBe(1);
    await rl.give("k", spec, 10);
    expect(await takeMany(rl, "k", spec, 4)).toBe(3);
    await rl.give("never-taken", spec, 5);
    expect(await takeMany(rl, "never-taken", spec, 4)).toBe(3);
  });

  it("keeps independent keys independent", async () => {
    const rl = await limiter();
    expect(await takeMany(rl, "a", buckets.expensive, 201)).toBe(200);
    expect(await takeMany(rl, "b", buckets.expensive, 150)).toBe(150);
    expect((await rl.take("a", buckets.expensive, 1)).allowed).toBe(false);
    expect(await takeMany(rl, "b", buckets.expensive, 51)).toBe(50);
    expect(await takeMany(rl, "c", buckets.standard, 2001)).toBe(2000);
  });

  // Past 100,000 tracked keys the limiter forgets full buckets; each bucket must be judged by its own shape.
  it("keeps a partly drained bucket when many keys of another bucket shape are tracked", async () => {
    const rl = await limiter();
    const authFailures = { capacity: 20, refillPerSecond: 0.2 };
    expect(await takeMany(rl, "standard:a", buckets.standard, 1500)).toBe(1500); // 500 left
    // Past 100,000 tracked keys, a refusal makes the limiter forget buckets it considers full.
    for (let i = 0; i < 100_000; i++) await rl.take(`standard:filler-${i}`, buckets.standard, 1);
    expect(await takeMany(rl, "auth:ip", authFailures, 21)).toBe(20);
    // 500 tokens are far from full for a 2000-token bucket: it must not have been reset.
    expect(await takeMany(rl, "standard:a", buckets.standard, 501)).toBe(500);
  });
});

for (const d of dialects.filter((x) => x.name === "pg")) {
  describe.skipIf(!d.available)("rate limiter [pg, shared by two nodes]", () => {
    let database: TestDatabase | undefined;
    const nodes: Database[] = [];
    /** Two Database handles on one PostgreSQL database: two stateless nodes sharing every bucket. */
    async function twoNodes(): Promise<[Database, Database]> {
      database = await openTestDatabase("pg");
      nodes.push(await openDatabase({ url: database.url }));
      return [database.db, nodes[0]!];
    }
    afterEach(async () => {
      for (const node of nodes.splice(0)) await node.close();
      await database?.dispose();
      database = undefined;
    });

    it("shares one bucket between nodes: what one drains, the other cannot take", async () => {
      const [a, b] = await twoNodes();
      const spec = { capacity: 5, refillPerSecond: 0.01 };
      expect(await takeMany(a.rateLimiter, "k", spec, 3)).toBe(3);
      expect(await takeMany(b.rateLimiter, "k", spec, 3)).toBe(2);
      const refused = await a.rateLimiter.take("k", spec, 1);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(90); // ~100 s per token
      expect((await b.rateLimiter.take("other", spec, 1)).allowed).toBe(true);
    });

    it("takes nothing at cost 0 but reports availability", async () => {
      const [a, b] = await twoNodes();
      const spec = { capacity: 2, refillPerSecond: 0.01 };
      for (let i = 0; i < 5; i++) expect((await a.rateLimiter.take("k", spec, 0)).allowed).toBe(true);
      expect(await takeMany(b.rateLimiter, "k", spec, 3)).toBe(2);
      const probe = await a.rateLimiter.take("k", spec, 0);
      expect(probe.allowed).toBe(false);
      expect(probe.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it("never allows more than capacity plus the refill under concurrent takes from both nodes", async () => {
      const [a, b] = await twoNodes();
      const spec = { capacity: 50, refillPerSecond: 1 };
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).rateLimiter.take("hammered", spec, 1)),
      );
      const elapsedSeconds = (performance.now() - started) / 1000;
      const allowed = results.filter((r) => r.allowed).length;
      expect(allowed).toBeGreaterThanOrEqual(50);
      expect(allowed).toBeLessThanOrEqual(50 + Math.ceil(elapsedSeconds * spec.refillPerSecond) + 1);
      const refusals = results.filter((r) => !r.allowed);
      expect(refusals.length).toBe(300 - allowed);
      for (const r of refusals) expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it("gives tokens back on one node that the other then takes, never beyond the capacity", async () => {
      const [a, b] = await twoNodes();
      const spec = { capacity: 3, refillPerSecond: 0.001 };
      expect(await takeMany(a.rateLimiter, "k", spec, 4)).toBe(3);
      await a.rateLimiter.give("k", spec, 1);
      expect(await takeMany(b.rateLimiter, "k", spec, 2)).toBe(1);
      await b.rateLimiter.give("k", spec, 10);
      expect(await takeMany(a.rateLimiter, "k", spec, 4)).toBe(3);
      await a.rateLimiter.give("never-taken", spec, 5);
      expect(await takeMany(b.rateLimiter, "never-taken", spec, 4)).toBe(3);
    });

    it("refills from the database clock", async () => {
      const [a, b] = await twoNodes();
      const spec = { capacity: 3, refillPerSecond: 20 };
      expect(await takeMany(a.rateLimiter, "k", spec, 3)).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 200)); // ~4 tokens' worth, capped at 3
      expect(await takeMany(b.rateLimiter, "k", spec, 3)).toBe(3);
    });
  });
}
