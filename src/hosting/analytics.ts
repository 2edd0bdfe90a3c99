import type { H3Event } from "h3";
import { ENGAGEMENT, PAGEVIEW } from "../db/stores/analytics-sql.ts";
import type { Platform } from "../kernel/platform.ts";
import { BodyRefused, readBodyText } from "../rest/body.ts";
import { IGNORE_COOKIE } from "../services/analytics/collector.ts";
import { ANALYTICS_SCRIPT } from "./analytics-script.ts";
import type { Reply } from "./respond.ts";

/** Where a live site serves the analytics script and takes its events. */
export const ANALYTICS_PATH = "/_service/analytics";
const IGNORE_PATH = `${ANALYTICS_PATH}/ignore`;
const MAX_EVENT_BYTES = 4096;
const MAX_PROPS = 30;

const text = (status: number, body: string, type: string, extra: Record<string, string> = {}): Reply => {
  const bytes = new TextEncoder().encode(body);
  return {
    status,
    headers: {
      "content-type": type,
      "content-length": String(bytes.byteLength),
      "x-content-type-options": "nosniff",
      ...extra,
    },
    body: bytes,
  };
};

/** GET of the script, or of the owner's opt-out page; undefined for other paths. */
export function analyticsGet(pathname: string, search: string, secure: boolean): Reply | undefined {
  if (pathname === ANALYTICS_PATH) {
    return text(200, ANALYTICS_SCRIPT, "text/javascript; charset=utf-8", {
      "cache-control": "public, max-age=3600",
    });
  }
  if (pathname !== IGNORE_PATH) return undefined;
  const off = new URLSearchParams(search).get("on") === "0";
  const cookie = off
    ? `${IGNORE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure ? "; Secure" : ""}`
    : `${IGNORE_COOKIE}=1; Path=/; Max-Age=315360000; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  const message = off
    ? "Visits from this browser are counted again."
    : "Visits from this browser are no longer counted on this site.";
  return text(
    200,
    `<!doctype html><meta charset="utf-8"><title>Analytics</title><p>${message}</p>`,
    "text/html; charset=utf-8",
    {
      "set-cookie": cookie,
      "cache-control": "no-store",
    },
  );
}

interface Payload {
  name: string;
  pathname: string;
  search: string;
  referer: string | null;
  engagementMs: number;
  props: Record<string, string> | null;
}

/** The script's event, checked: a name, a URL of this host, text properties; null when it is not one. */
function payloadOf(raw: string, host: string): Payload | null {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!body || typeof body !== "object") return null;
  const { n, u, r, e, p } = body as Record<string, unknown>;
  if (typeof n !== "string" || n.length === 0 || n.length > 64 || typeof u !== "string") return null;
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return null;
  }
  if (url.host.toLowerCase() !== host.toLowerCase()) return null;
  let props: Record<string, string> | null = null;
  if (p && typeof p === "object" && !Array.isArray(p)) {
    const entries = Object.entries(p as Record<string, unknown>).slice(0, MAX_PROPS);
    props = Object.fromEntries(
      entries
        .filter(([key, value]) => key.length <= 64 && ["string", "number", "boolean"].includes(typeof value))
        .map(([key, value]) => [key, String(value).slice(0, 200)]),
    );
  }
  return {
    name: n,
    pathname: url.pathname,
    search: url.search,
    referer: typeof r === "string" && r ? r.slice(0, 2000) : null,
    engagementMs: n === ENGAGEMENT && typeof e === "number" && Number.isFinite(e) ? Math.round(e) : 0,
    props: n === PAGEVIEW || n === ENGAGEMENT ? null : props,
  };
}

/**
 * A POST of the script: records the event for the published website `websiteOf` finds, and answers 202 (400 for
 * a malformed event, 403 from another origin, 413 for a body over 4 KiB).
 */
export async function analyticsPost(
  platform: Platform,
  event: H3Event,
  websiteOf: () => Promise<string | null>,
  host: string,
  ip: string,
): Promise<Reply> {
  let raw: string;
  try {
    raw = await readBodyText(event.req, { maxBytes: MAX_EVENT_BYTES, timeoutMs: 10_000 });
  } catch (error) {
    if (!(error instanceof BodyRefused)) throw error;
    return text(error.options.status ?? 400, error.message, "text/plain; charset=utf-8");
  }
  const payload = payloadOf(raw, host);
  if (!payload) return text(400, "Not an analytics event.", "text/plain; charset=utf-8");
  const origin = event.req.headers.get("origin");
  if (origin && new URL(origin).host.toLowerCase() !== host.toLowerCase()) {
    return text(403, "Events are taken from the site's own pages only.", "text/plain; charset=utf-8");
  }
  const websiteId = await websiteOf();
  if (websiteId && platform.analytics.countable(event.req.headers)) {
    platform.analytics.record({
      websiteId,
      ts: Date.now(),
      host,
      ip,
      userAgent: (event.req.headers.get("user-agent") ?? "").slice(0, 512),
      ...payload,
    });
  }
  return { status: 202, headers: { "content-length": "0", "cache-control": "no-store" }, body: null };
}
