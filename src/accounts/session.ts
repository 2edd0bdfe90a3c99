import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { SESSION_COOKIE } from "../auth/authenticate.ts";
import type { UserRecord } from "../db/stores/organizations.ts";
import type { Platform } from "../kernel/platform.ts";
import { cookieHeader, readCookie } from "./cookies.ts";

/** How long a session lives without use; every use (at most once a minute recorded) slides it. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOUCH_INTERVAL_MS = 60 * 1000;

/** A request's signed-in session. */
export interface SignedIn {
  /** The session's id: the SHA-256 of the cookie's secret. */
  sessionId: string;
  user: UserRecord;
  /** Token every POST form and same-origin API write must carry; derived from the cookie's secret. */
  csrfToken: string;
  /** A refreshed Set-Cookie value when the session slid (the guard sends it back). */
  refreshCookie?: string;
}

/** The stored id of a session secret (or any other high-entropy secret): its SHA-256 in hex. */
export function sha256Hex(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The CSRF token of a session: HMAC-SHA256 keyed by the cookie's secret, so the database never holds it. */
function csrfTokenOf(secret: string): string {
  return createHmac("sha256", secret).update("sitewright csrf v1").digest("base64url");
}

/** Constant-time comparison of two tokens (false when their lengths differ). */
export function sameToken(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== "string") return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Starts a session for `userId`; returns the Set-Cookie value carrying its secret. */
export async function startSession(
  platform: Platform,
  userId: string,
  meta: { ip: string; userAgent: string },
): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  const now = Date.now();
  await platform.db.transaction((stores) =>
    stores.sessions.insert({
      id: sha256Hex(secret),
      userId,
      createdAt: now,
      expiresAt: now + SESSION_TTL_MS,
      lastSeenAt: now,
      ip: meta.ip.slice(0, 100),
      userAgent: meta.userAgent.slice(0, 500),
    }),
  );
  return cookieHeader(platform, SESSION_COOKIE, secret, SESSION_TTL_MS / 1000);
}

/** The request's live session and its user, or undefined (no cookie, unknown, expired or revoked session). */
export async function readSession(platform: Platform, request: Request): Promise<SignedIn | undefined> {
  const secret = readCookie(request, SESSION_COOKIE);
  if (!secret || !SECRET_SHAPE.test(secret)) return undefined;
  const sessionId = sha256Hex(secret);
  const found = await platform.db.read(async (stores) => {
    const session = await stores.sessions.get(sessionId);
    const user = session && (await stores.organizations.getUser(session.userId));
    return session && user ? { session, user } : undefined;
  });
  if (!found) return undefined;
  const now = Date.now();
  if (found.session.expiresAt <= now) {
    await platform.db.transaction((stores) => stores.sessions.delete(sessionId));
    return undefined;
  }
  const signedIn: SignedIn = { sessionId, user: found.user, csrfToken: csrfTokenOf(secret) };
  if (now - found.session.lastSeenAt >= TOUCH_INTERVAL_MS) {
    await platform.db.transaction((stores) => stores.sessions.touch(sessionId, now, now + SESSION_TTL_MS));
    signedIn.refreshCookie = cookieHeader(platform, SESSION_COOKIE, secret, SESSION_TTL_MS / 1000);
  }
  return signedIn;
}

/** Whether `token` is the session's CSRF token (constant time). */
export function checkCsrf(signedIn: SignedIn, token: string | null | undefined): boolean {
  return sameToken(signedIn.csrfToken, token);
}

/** Ends the request's session on the server (if any); returns the Set-Cookie value that clears the cookie. */
export async function endSession(platform: Platform, request: Request): Promise<string> {
  const secret = readCookie(request, SESSION_COOKIE);
  if (secret && SECRET_SHAPE.test(secret)) {
    await platform.db.transaction((stores) => stores.sessions.delete(sha256Hex(secret)));
  }
  return cookieHeader(platform, SESSION_COOKIE, "", 0);
}
