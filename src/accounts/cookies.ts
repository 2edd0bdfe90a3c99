import type { Platform } from "../kernel/platform.ts";

/** The value of cookie `name` in a request's Cookie header, if present. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether cookies get `Secure`: always when the app is served over https; on plain http only for localhost,
 * which browsers treat as a secure context (Chromium and Firefox keep Secure cookies set by http://localhost).
 */
export function secureCookies(platform: Platform): boolean {
  const url = new URL(platform.config.appUrl);
  return url.protocol === "https:" || (url.protocol === "http:" && isLocalhost(url.hostname));
}

function isLocalhost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost");
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, Secure per `secureCookies`; maxAge 0 clears it. */
export function cookieHeader(platform: Platform, name: string, value: string, maxAgeSeconds: number): string {
  const parts = [`${name}=${value}`, "Path=/", `Max-Age=${maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
  if (secureCookies(platform)) parts.push("Secure");
  return parts.join("; ");
}
