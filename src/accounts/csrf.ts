import { randomBytes } from "node:crypto";
import type { Platform } from "../kernel/platform.ts";
import { cookieHeader, readCookie } from "./cookies.ts";
import { sameToken } from "./session.ts";

/** Cookie of the signed-out forms' double-submit CSRF token (sign-in, sign-up, password forms). */
export const FORM_CSRF_COOKIE = "sitewright_csrf";
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const FORM_TOKEN_MAX_AGE = 24 * 60 * 60;

/**
 * The signed-out CSRF token for a form page: the browser's existing one, or a new one with the Set-Cookie
 * that stores it. A form post must send the same value in its `csrf` field as in the cookie.
 */
export function formCsrfToken(platform: Platform, request: Request): { token: string; setCookie?: string } {
  const existing = readCookie(request, FORM_CSRF_COOKIE);
  if (existing && TOKEN_SHAPE.test(existing)) return { token: existing };
  const token = randomBytes(32).toString("base64url");
  return { token, setCookie: cookieHeader(platform, FORM_CSRF_COOKIE, token, FORM_TOKEN_MAX_AGE) };
}

/** Whether a signed-out form post's `csrf` field matches its cookie (constant time). */
export function checkFormCsrf(request: Request, token: string | null | undefined): boolean {
  const cookie = readCookie(request, FORM_CSRF_COOKIE);
  return !!cookie && TOKEN_SHAPE.test(cookie) && sameToken(cookie, token);
}

/**
 * Whether a state-changing request may come from where it says: `Sec-Fetch-Site`, when sent, must be
 * same-origin (a sibling site host is same-site, and refused); `Origin`, when sent, must be the app's origin
 * or the request's own. With `requireOrigin`, a request without `Origin` is refused too (script calls).
 */
export function sameOriginRequest(platform: Platform, request: Request, requireOrigin = false): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.get("origin");
  if (origin === null) return !requireOrigin;
  return origin === new URL(platform.config.appUrl).origin || origin === new URL(request.url).origin;
}
