import type { H3Event } from "h3";
import { readSession, type SignedIn } from "../accounts/session.ts";
import type { Platform } from "../kernel/platform.ts";

/** A redirect (303 See Other) to a same-origin path, never cached. */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

/**
 * The signed-in session of a page request, or a redirect to `/signin?next=<this path>` when signed out.
 * A session that slid gets its cookie refreshed on the page's response.
 */
export async function requireSignedIn(platform: Platform, event: H3Event): Promise<SignedIn | Response> {
  const signedIn = await readSession(platform, event.req);
  if (!signedIn) {
    const next = `${event.url.pathname}${event.url.search}`;
    return redirect(next === "/" ? "/signin" : `/signin?next=${encodeURIComponent(next)}`);
  }
  if (signedIn.refreshCookie) event.res.headers.append("set-cookie", signedIn.refreshCookie);
  return signedIn;
}
