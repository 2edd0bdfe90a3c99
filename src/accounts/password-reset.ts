import { randomBytes } from "node:crypto";
import { ApiError } from "../kernel/errors.ts";
import type { Platform } from "../kernel/platform.ts";
import { checkPassword, normalizeEmail } from "./accounts.ts";
import { markEmailVerified } from "./email-verification.ts";
import { hashPassword } from "./passwords.ts";
import { sha256Hex } from "./session.ts";
import { RESET_PER_EMAIL, RESET_PER_IP, spend } from "./throttle.ts";

/** How long an emailed reset link works. */
export const RESET_TTL_MS = 60 * 60 * 1000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Emails a single-use reset link valid for an hour when `email` belongs to an account; does nothing visible
 * otherwise, so the answer never tells whether an account exists. Only the link's SHA-256 is stored.
 */
export async function requestPasswordReset(
  platform: Platform,
  rawEmail: string,
  meta: { ip: string },
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  await spend(
    platform,
    [
      { key: `reset:ip:${meta.ip}`, spec: RESET_PER_IP },
      { key: `reset:email:${email}`, spec: RESET_PER_EMAIL },
    ],
    "password reset requests",
  );
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const user = await platform.db.transaction(async (stores) => {
    const found = await stores.sessions.userByEmail(email);
    if (found) {
      await stores.sessions.insertReset({
        id: sha256Hex(token),
        userId: found.id,
        createdAt: now,
        expiresAt: now + RESET_TTL_MS,
        usedAt: null,
      });
    }
    return found;
  });
  if (!user) return;
  const link = `${platform.config.appUrl}/password/reset?token=${token}`;
  await platform.mail
    .send({
      to: user.email,
      subject: "Reset your Sitewright password",
      kind: "password_reset",
      text: `Someone asked to reset the password of the Sitewright account ${user.email}.\n\nTo choose a new password, open this link within an hour (it works once):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.`,
    })
    .catch((error) => platform.log.error("password reset mail failed", error));
}

/**
 * A single-use link that sets the password of `userId` (the dev server prints one for the local owner, who
 * starts without a password). Valid for `ttlMs`; only its SHA-256 is stored.
 */
export async function mintPasswordSetupLink(
  platform: Platform,
  userId: string,
  ttlMs: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await platform.db.transaction((stores) =>
    stores.sessions.insertReset({
      id: sha256Hex(token),
      userId,
      createdAt: now,
      expiresAt: now + ttlMs,
      usedAt: null,
    }),
  );
  return `${platform.config.appUrl}/password/reset?token=${token}`;
}

const invalidLink = () =>
  new ApiError("not_found", "This reset link is invalid, expired or already used.", {
    suggestion: "Ask for a new link on the forgot-password page.",
  });

/** Throws unless `token` names an unused, unexpired reset link. */
export async function checkResetToken(platform: Platform, token: string): Promise<void> {
  if (!TOKEN_SHAPE.test(token)) throw invalidLink();
  const reset = await platform.db.read((stores) => stores.sessions.getReset(sha256Hex(token)));
  if (!reset || reset.usedAt !== null || reset.expiresAt <= Date.now()) throw invalidLink();
}

/**
 * Sets a new password through a reset link: in one transaction the link is marked used (a second use fails),
 * the password replaced, and every session of the user ended. The link proved the mailbox, so an unverified
 * address becomes verified; the account then belongs to whoever reads that mail, and the connected clients
 * approved before (by whoever created the account with that address) are revoked with its sessions.
 */
export async function resetPassword(platform: Platform, token: string, password: string): Promise<void> {
  checkPassword(password);
  await checkResetToken(platform, token);
  const passwordHash = await hashPassword(password, platform.config.passwordCost);
  const id = sha256Hex(token);
  await platform.db.transaction(async (stores) => {
    const reset = await stores.sessions.getReset(id);
    const now = Date.now();
    if (!reset || reset.expiresAt <= now || !(await stores.sessions.useReset(id, now))) throw invalidLink();
    await stores.sessions.setPasswordHash(reset.userId, passwordHash);
    await stores.sessions.deleteForUser(reset.userId);
    if (await markEmailVerified(stores, reset.userId, now)) {
      for (const grant of await stores.oauth.activeGrantsOfUser(reset.userId)) {
        await stores.oauth.revokeGrant(grant.id, now);
        await stores.oauth.revokeTokensOfGrant(grant.id, now);
      }
    }
  });
}
