import type { BucketSpec, RateLimiter } from "../handle.ts";

interface Bucket {
  tokens: number;
  at: number;
  spec: BucketSpec;
}

const refilled = (bucket: Bucket, t: number) =>
  Math.min(bucket.spec.capacity, bucket.tokens + ((t - bucket.at) / 1000) * bucket.spec.refillPerSecond);

/**
 * Exact in-process token buckets (the embedded SQLite deployment is one process). Past `maxKeys` tracked
 * keys, buckets that have refilled completely are forgotten: they behave exactly like absent ones.
 */
export function memoryRateLimiter(now: () => number = Date.now, maxKeys = 100_000): RateLimiter {
  const buckets = new Map<string, Bucket>();
  let sweepAt = maxKeys;

  function sweep(t: number) {
    for (const [key, bucket] of buckets) {
      if (refilled(bucket, t) >= bucket.spec.capacity) buckets.delete(key);
    }
    sweepAt = Math.max(maxKeys, buckets.size * 2);
  }

  return {
    async take(key: string, spec: BucketSpec, cost: number) {
      const t = now();
      const existing = buckets.get(key);
      const tokens = existing ? refilled({ ...existing, spec }, t) : spec.capacity;
      const needed = Math.max(cost, 1);
      const allowed = tokens >= needed;
      buckets.set(key, { tokens: allowed ? tokens - cost : tokens, at: t, spec });
      if (buckets.size > sweepAt) sweep(t);
      return allowed
        ? { allowed: true, retryAfterSeconds: 0 }
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
        tokens: Math.min(spec.capacity, refilled({ ...existing, spec }, t) + tokens),
        at: t,
        spec,
      });
    },
  };
}
