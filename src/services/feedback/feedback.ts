import { ApiError } from "../../kernel/errors.ts";
import type { Platform } from "../../kernel/platform.ts";
import type { Principal } from "../../kernel/principal.ts";

/** The categories of feedback (a closed set; none is fine too). */
export const feedbackCategories = ["bug", "idea", "documentation", "confusing", "other"] as const;

/** The longest message, in characters. */
export const MAX_FEEDBACK_CHARS = 4000;

/** Each principal may submit this many messages at once, then one more every six minutes (ten an hour). */
export const FEEDBACK_BUCKET = { capacity: 10, refillPerSecond: 1 / 360 };

/**
 * Takes a token from the principal's feedback bucket (its own, beside the ordinary rate limit), or fails with
 * `rate_limited` and the seconds until the next token.
 */
export async function takeFeedbackToken(platform: Platform, principal: Principal): Promise<void> {
  const bucket = await platform.db.rateLimiter.take(`${principal.bucketKey}:feedback`, FEEDBACK_BUCKET, 1);
  if (bucket.allowed) return;
  throw new ApiError("rate_limited", "Too much feedback from this credential in a short time.", {
    retryAfterSeconds: bucket.retryAfterSeconds,
    headers: { "Retry-After": String(bucket.retryAfterSeconds) },
    suggestion: `Retry after ${bucket.retryAfterSeconds} second(s), or gather several points into one message.`,
  });
}
