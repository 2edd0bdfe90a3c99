import type { BucketSpec } from "../db/database.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../platform.ts";

/** Failed sign-ins per email: 10, then one more every 90 s. */
export const SIGN_IN_PER_EMAIL: BucketSpec = { capacity: 10, refillPerSecond: 1 / 90 };
/** Failed sign-ins per client address: 30, then one more every 30 s. */
export const SIGN_IN_PER_IP: BucketSpec = { capacity: 30, refillPerSecond: 1 / 30 };
/** Sign-ups per client address: 20, then one more every 3 minutes. */
export const SIGN_UP_PER_IP: BucketSpec = { capacity: 20, refillPerSecond: 1 / 180 };
/** Reset mails per email: 5, then one more every 12 minutes; per address: 20, then one every 3 minutes. */
export const RESET_PER_EMAIL: BucketSpec = { capacity: 5, refillPerSecond: 1 / 720 };
export const RESET_PER_IP: BucketSpec = { capacity: 20, refillPerSecond: 1 / 180 };

export interface Bucket {
  key: string;
  spec: BucketSpec;
}

function tooMany(retryAfterSeconds: number, what: string): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError("rate_limited", `Too many ${what}. Try again in ${seconds} s.`, {
    retryAfterSeconds: seconds,
    headers: { "Retry-After": String(seconds) },
  });
}

/** Throws 429 when any bucket is empty, taking nothing (failures are charged with `charge`). */
export async function gate(platform: Platform, buckets: readonly Bucket[], what: string): Promise<void> {
  for (const bucket of buckets) {
    const result = await platform.db.rateLimiter.take(bucket.key, bucket.spec, 0);
    if (!result.allowed) throw tooMany(result.retryAfterSeconds, what);
  }
}

/** Takes one token from every bucket. */
export async function charge(platform: Platform, buckets: readonly Bucket[]): Promise<void> {
  for (const bucket of buckets) await platform.db.rateLimiter.take(bucket.key, bucket.spec, 1);
}

/** Takes one token from every bucket, throwing 429 when one is empty (for actions limited on every use). */
export async function consume(platform: Platform, buckets: readonly Bucket[], what: string): Promise<void> {
  await gate(platform, buckets, what);
  await charge(platform, buckets);
}
