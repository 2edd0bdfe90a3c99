import type { UserRecord } from "../db/stores/organizations.ts";
import { ApiError } from "../kernel/errors.ts";
import { newId } from "../kernel/ids.ts";
import { callTool } from "../kernel/pipeline.ts";
import type { Platform } from "../kernel/platform.ts";
import { visitorPrincipal } from "../kernel/principal.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, verifyNothing, verifyPassword } from "./passwords.ts";
import { type Bucket, refund, SIGN_IN_PER_EMAIL, SIGN_IN_PER_IP, SIGN_UP_PER_IP, spend } from "./throttle.ts";

/** Emails are compared and stored trimmed and lower-case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$|^[^\s@\p{Cc}]+@localhost$/u;

/** Throws `validation` unless `email` (normalized) looks like an address. */
export function checkEmail(email: string): void {
  if (email.length > 254 || !EMAIL_SHAPE.test(email)) {
    throw new ApiError("validation", "Email: enter an address like name@example.com.");
  }
}

/** Throws `validation` unless the password is long enough (and not absurdly long). */
export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new ApiError("validation", `Password: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new ApiError("validation", `Password: use at most ${MAX_PASSWORD_LENGTH} characters.`);
  }
}

/**
 * Creates an account through the one pipeline (operation `accounts.signUp`, as the signed-out visitor, audited
 * with transport `dashboard`): the user (email normalized, password hashed with scrypt) and their personal
 * organization with them as owner, and the verification mail. Sign-ups are limited per client address, charged
 * before anything runs. A taken email is a `conflict` that names the sign-in page.
 */
export async function signUp(
  platform: Platform,
  input: { email: string; password: string; name: string; invitationToken?: string },
  meta: { ip?: string; requestId?: string } = {},
): Promise<UserRecord> {
  if (meta.ip) await spend(platform, [{ key: `signup:ip:${meta.ip}`, spec: SIGN_UP_PER_IP }], "sign-ups");
  const tool = platform.registry.byOperationId("accounts.signUp")!;
  const created = (await callTool(platform, tool, input, {
    principal: visitorPrincipal(meta.ip ?? "unknown"),
    transport: "dashboard",
    requestId: meta.requestId ?? newId(),
  })) as { userId: string };
  return (await platform.db.read((stores) => stores.organizations.getUser(created.userId)))!;
}

/** The sign-in failure message: the same whether the email is unknown or the password wrong. */
export const SIGN_IN_FAILED = "Email or password is incorrect.";

/**
 * Checks an email and password. Failures are throttled per email and per client address (429 with the wait):
 * every attempt pays one token of each budget before its password is checked (so parallel attempts never get
 * past the cap), and a successful sign-in gets its tokens back. Every failure says only `SIGN_IN_FAILED`.
 */
export async function signIn(
  platform: Platform,
  input: { email: string; password: string },
  meta: { ip: string },
): Promise<UserRecord> {
  const email = normalizeEmail(input.email);
  const buckets: Bucket[] = [
    { key: `signin:email:${email}`, spec: SIGN_IN_PER_EMAIL },
    { key: `signin:ip:${meta.ip}`, spec: SIGN_IN_PER_IP },
  ];
  await spend(platform, buckets, "sign-in attempts");
  const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
  const user = await platform.db.read((stores) => stores.sessions.userByEmail(email));
  const ok =
    user?.passwordHash && password.length <= MAX_PASSWORD_LENGTH
      ? await verifyPassword(password, user.passwordHash)
      : await verifyNothing(password, platform.config.passwordCost);
  if (!ok || !user) throw new ApiError("unauthorized", SIGN_IN_FAILED);
  await refund(platform, buckets);
  return user;
}
