import { expect, it } from "vitest";
import { describeStores } from "./fixtures.ts";

const TTL = 60_000;

/** A response exercising what JSON can carry: nesting, arrays, null, numbers, booleans, unicode. */
const response = {
  status: 200,
  body: {
    id: "wbs_123",
    nested: { deeper: { list: [1, "two", null, { three: 3 }], empty: {}, none: [] } },
    nothing: null,
    numbers: [
      0,
      -1,
      42,
      0.1,
      0.30000000000000004,
      -2.5e-7,
      1.5e300,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
    ],
    flags: [true, false],
    text: 'Café ☕ "quoted" \\ back\nslash — 日本語 👋',
  },
  headers: { "content-type": "application/json" },
};

describeStores("idempotency store", (ctx) => {
  const claim = (key: string, hash: string, now: number, ttl = TTL) =>
    ctx.db.transaction((s) => s.idempotency.claim(key, hash, now, ttl));
  const complete = (key: string, value: unknown) =>
    ctx.db.transaction((s) => s.idempotency.complete(key, value));
  const release = (key: string) => ctx.db.transaction((s) => s.idempotency.release(key));

  it("claims a new key, then reports it in flight with the first request's hash", async () => {
    expect(await claim("k1", "hash-a", 1_000)).toStrictEqual({ state: "claimed" });
    expect(await claim("k1", "hash-a", 1_001)).toStrictEqual({ state: "in_flight", requestHash: "hash-a" });
    expect(await claim("k1", "hash-b", 1_002)).toStrictEqual({ state: "in_flight", requestHash: "hash-a" });
  });

  it("keeps keys independent", async () => {
    expect(await claim("k1", "hash-a", 1_000)).toStrictEqual({ state: "claimed" });
    expect(await claim("k2", "hash-b", 1_000)).toStrictEqual({ state: "claimed" });
    await complete("k1", { done: 1 });
    expect(await claim("k2", "hash-x", 1_001)).toStrictEqual({ state: "in_flight", requestHash: "hash-b" });
  });

  it("replays a completed response exactly as stored", async () => {
    await claim("k1", "hash-a", 1_000);
    await complete("k1", response);
    const replay = await claim("k1", "hash-a", 2_000);
    expect(replay).toStrictEqual({ state: "completed", requestHash: "hash-a", response });
    // A different request under the same key learns the original hash (callers refuse it).
    expect(await claim("k1", "hash-other", 2_001)).toStrictEqual({
      state: "completed",
      requestHash: "hash-a",
      response,
    });
  });

  it("round-trips top-level JSON values other than objects", async () => {
    const values: unknown[] = [null, [1, [2, [3]]], 7, -0.5, true, "plain text", ""];
    for (const [i, value] of values.entries()) {
      await claim(`k${i}`, "h", 1_000);
      await complete(`k${i}`, value);
    }
    for (const [i, value] of values.entries()) {
      expect(await claim(`k${i}`, "h", 1_001)).toStrictEqual({
        state: "completed",
        requestHash: "h",
        response: value,
      });
    }
  });

  it("makes a released key claimable again by a new request", async () => {
    await claim("k1", "hash-a", 1_000);
    await release("k1");
    expect(await claim("k1", "hash-b", 1_001)).toStrictEqual({ state: "claimed" });
    expect(await claim("k1", "hash-c", 1_002)).toStrictEqual({ state: "in_flight", requestHash: "hash-b" });
    await release("never-claimed"); // releasing an unknown key is harmless
  });

  it("lets an expired record be claimed again, in flight or completed, but not before it expires", async () => {
    await claim("flight", "hash-a", 1_000, 100);
    await claim("done", "hash-a", 1_000, 100);
    await complete("done", { ok: true });

    expect(await claim("flight", "hash-b", 1_099, 100)).toStrictEqual({
      state: "in_flight",
      requestHash: "hash-a",
    });
    expect(await claim("done", "hash-b", 1_099, 100)).toStrictEqual({
      state: "completed",
      requestHash: "hash-a",
      response: { ok: true },
    });

    expect(await claim("flight", "hash-b", 1_101, 100)).toStrictEqual({ state: "claimed" });
    expect(await claim("done", "hash-b", 1_101, 100)).toStrictEqual({ state: "claimed" });
    // The new claims run on their own expiry and carry the new hash.
    expect(await claim("done", "hash-c", 1_200, 100)).toStrictEqual({
      state: "in_flight",
      requestHash: "hash-b",
    });
  });

  it("forgets a claim whose transaction rolled back", async () => {
    await expect(
      ctx.db.transaction(async (s) => {
        expect(await s.idempotency.claim("k1", "hash-a", 1_000, TTL)).toStrictEqual({ state: "claimed" });
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(await claim("k1", "hash-b", 1_001)).toStrictEqual({ state: "claimed" });
  });

  it("grants a key to exactly one of many concurrent claims", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claim("contended", `hash-${i}`, 1_000 + i)),
    );
    const winners = results.flatMap((r, i) => (r.state === "claimed" ? [i] : []));
    expect(winners).toHaveLength(1);
    const winnerHash = `hash-${winners[0]}`;
    for (const r of results) {
      if (r.state !== "claimed") expect(r).toStrictEqual({ state: "in_flight", requestHash: winnerHash });
    }
  });
});
