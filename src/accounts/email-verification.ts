import { randomBytes } from "node:crypto";
import type { Stores } from "../db/stores/index.ts";
import type { UserRecord } from "../db/stores/organizations.ts";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { sha256Hex } from "./session.ts";
import { spend, VERIFY_MAIL_PER_USER } from "./throttle.ts";

/** How long an emailed verification link works. */
export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Records a new single-use verification link for the user's current address (32 random bytes; only their SHA-256
 * is stored) in the caller's unit of work, and returns its secret for the mail.
 */
export async function issueVerification(stores: Stores, user: UserRecord, now: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await stores.emailVerifications.insert({
    id: sha256Hex(token),
    userId: user.id,
    email: user.email,
    createdAt: now,
    expiresAt: now + VERIFY_TTL_MS,
    usedAt: null,
  });
  return token;
}

/** Mails a verification link (kind `email_verification`); the link needs the account's own session to work. */
export async function sendVerificationMail(platform: Platform, email: string, token: string): Promise<void> {
  const base = platform.config.appUrl;
  const link = `${base}/account/verify-email?token=${token}`;
  await platform.mail.send({
    to: email,
    subject: "Verify your email for Sitewright",
    kind: "email_verification",
    text: [
      `Someone created a Sitewright account with the address ${email}.`,
      "",
      `If it was you, open this link within 24 hours, signed in to that account (it works once):`,
      link,
      "",
      "Until the address is verified, no invitation or access granted to it applies to the account.",
      `If it was not you, do not open the link: someone else holds an account with your address. Take it over by`,
      `resetting its password at ${base}/password/forgot, or ignore this mail.`,
    ].join("\n"),
  });
}

/**
 * Marks the user's address verified in the caller's unit of work and applies the editor grants that waited for it.
 * Returns false when it was verified already.
 */
export async function markEmailVerified(stores: Stores, userId: string, now: number): Promise<boolean> {
  if (!(await stores.emailVerifications.markVerified(userId, now))) return false;
  await stores.websiteEditors.applyPending(userId);
  return true;
}

const invalidLink = () =>
  new ApiError("not_found", "This verification link is invalid, expired or already used.", {
    suggestion: "Sign in and send a new link from the banner at the top of the dashboard.",
  });

/**
 * Verifies the signed-in user's address through an emailed link: the link must be unused, unexpired, issued to this
 * user for the address they still have. Possession of the link proves the mailbox and the session proves the
 * password, so someone who only received the mail never verifies an account another person created with their
 * address. One transaction: the link is used (a second use fails), the user verified, their pending grants applied.
 */
export async function verifyEmail(platform: Platform, user: UserRecord, token: string): Promise<void> {
  if (!TOKEN_SHAPE.test(token)) throw invalidLink();
  const id = sha256Hex(token);
  await platform.db.transaction(async (stores) => {
    const now = Date.now();
    const link = await stores.emailVerifications.get(id);
    if (!link || link.usedAt !== null || link.expiresAt <= now) throw invalidLink();
    const current = await stores.organizations.getUser(user.id);
    if (link.userId !== user.id || current?.email !== link.email) {
      throw new ApiError("forbidden", "This verification link belongs to another account.", {
        suggestion: "Sign out, then sign in as the account the link was sent for and open it again.",
      });
    }
    if (!(await stores.emailVerifications.use(id, now))) throw invalidLink();
    await markEmailVerified(stores, user.id, now);
  });
}

/**
 * Sends the signed-in user a fresh verification link (earlier unused ones stop working). Limited per user (429 with
 * the wait); a verified user gets `conflict`.
 */
export async function resendVerification(platform: Platform, user: UserRecord): Promise<void> {
  if (user.emailVerifiedAt !== null) {
    throw new ApiError("conflict", `${user.email} is already verified.`);
  }
  await spend(
    platform,
    [{ key: `verify:user:${user.id}`, spec: VERIFY_MAIL_PER_USER }],
    "verification mails",
  );
  const token = await platform.db.transaction(async (stores) => {
    await stores.emailVerifications.deleteUnusedForUser(user.id);
    return issueVerification(stores, user, Date.now());
  });
  await sendVerificationMail(platform, user.email, token);
}

/** Throws a clear `forbidden` unless the user's address is verified (what accepting an invitation needs). */
export function requireVerified(user: UserRecord, action: string): void {
  if (user.emailVerifiedAt !== null) return;
  throw new ApiError("forbidden", `Verify your email address ${user.email} before you ${action}.`, {
    suggestion:
      "Open the verification link mailed to that address while signed in (send a new one from the banner at the top of the dashboard), then try again.",
  });
}
