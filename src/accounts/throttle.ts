import type { BucketSpec } from "../db/database.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";

/** Failed sign-ins per email: 10, then one more every 90 s. */
export const SIGN_IN_PER_EMAIL: BucketSpec = { capacity: 10, refillPerSecond: 1 / 90 };
/** Failed sign-ins per client address: 30, then one more every 30 s. */
export const SIGN_IN_PER_IP: BucketSpec = { capacity: 30, refillPerSecond: 1 / 30 };
/** Sign-ups per client address: 20, then one more every 3 minutes. */
export const SIGN_UP_PER_IP: BucketSpec = { capacity: 20, refillPerSecond: 1 / 180 };
/** Reset mails per email: 5, then one more every 12 minutes; per address: 20, then one every 3 minutes. */
export const RESET_PER_EMAIL: BucketSpec = { capacity: 5, refillPerSecond: 1 / 720 };
export const RESET_PER_IP: BucketSpec = { capacity: 20, refillPerSecond: 1 / 180 };
/** Verification mails a signed-in user asks for again: 3, then one more every 10 minutes. */
export const VERIFY_MAIL_PER_USER: BucketSpec = { capacity: 3, refillPerSecond: 1 / 600 };

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

/**
 * Takes one token from every bucket before the attempt runs, each take atomic (check and take in one step), so
 * concurrent attempts can never all pass a check made before any of them paid. When one bucket is empty, the
 * tokens already taken for this attempt go back and it throws 429: a refused attempt costs nothing.
 */
export async function spend(platform: Platform, buckets: readonly Bucket[], what: string): Promise<void> {
  const taken: Bucket[] = [];
  for (const bucket of buckets) {
    const result = await platform.db.rateLimiter.take(bucket.key, bucket.spec, 1);
    if (!result.allowed) {
      await refund(platform, taken);
      throw tooMany(result.retryAfterSeconds, what);
    }
    taken.push(bucket);
  }
}

/** Gives back the token `spend` took from every bucket (an attempt that turned out free: a good password). */
export async function refund(platform: Platform, buckets: readonly Bucket[]): Promise<void> {
  for (const bucket of buckets) await platform.db.rateLimiter.give(bucket.key, bucket.spec, 1);
}
