import type { BucketSpec, RateLimiter } from "../handle.ts";

interface Bucket {
  tokens: number;
  at: number;
  spec: BucketSpec;
}

/** A bucket's tokens at `t`, refilled at `spec`'s rate (the spec of the call, which may differ from the stored one). */
const refilled = (bucket: Bucket, spec: BucketSpec, t: number) =>
  Math.min(spec.capacity, bucket.tokens + ((t - bucket.at) / 1000) * spec.refillPerSecond);
const ALLOWED = Object.freeze({ allowed: true, retryAfterSeconds: 0 });

/**
 * Exact in-process token buckets (the embedded SQLite deployment is one process). Past `maxKeys` tracked
 * keys, buckets that have refilled completely are forgotten: they behave exactly like absent ones.
 */
export function memoryRateLimiter(now: () => number = Date.now, maxKeys = 100_000): RateLimiter {
  const buckets = new Map<string, Bucket>();
  let sweepAt = maxKeys;

  function sweep(t: number) {
    for (const [key, bucket] of buckets) {
      if (refilled(bucket, bucket.spec, t) >= bucket.spec.capacity) buckets.delete(key);
    }
    sweepAt = Math.max(maxKeys, buckets.size * 2);
  }

  return {
    async take(key: string, spec: BucketSpec, cost: number) {
      const t = now();
      const existing = buckets.get(key);
      const tokens = existing ? refilled(existing, spec, t) : spec.capacity;
      const needed = Math.max(cost, 1);
      const allowed = tokens >= needed;
      // Updated in place: a request costs no new bucket.
      if (existing) {
        existing.tokens = allowed ? tokens - cost : tokens;
        existing.at = t;
        existing.spec = spec;
      } else buckets.set(key, { tokens: allowed ? tokens - cost : tokens, at: t, spec });
      if (buckets.size > sweepAt) sweep(t);
      return allowed
        ? ALLOWED
        : {
            allowed: false,
            retryAfterSeconds: Math.max(1, Math.ceil((needed - tokens) / spec.refillPerSecond)),
          };
    },
    async give(key: string, spec: BucketSpec, tokens: number) {
      const existing = buckets.get(key);
      if (!existing) return; // an absent bucket is full
      const t = now();
      buckets.set(key, {
        tokens: Math.min(spec.capacity, refilled(existing, spec, t) + tokens),
        at: t,
        spec,
      });
    },
  };
}
