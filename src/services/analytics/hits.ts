import { PAGEVIEW } from "../../db/stores/analytics-sql.ts";
import type { Collector, HitHeaders } from "./collector.ts";

/**
 * Counts a live site's reply as a page view when it is one: a GET answered 200 with HTML (not an asset, a 304 or
 * a 404), from a client that may be counted. Copies the few strings it needs and returns at once.
 */
export function recordPageView(
  collector: Collector,
  websiteId: string,
  host: string,
  request: { method: string; pathname: string; search: string; headers: HitHeaders },
  reply: { status: number; headers: Record<string, string> },
  ip: string,
): void {
  if (request.method !== "GET" || reply.status !== 200) return;
  if (!reply.headers["content-type"]?.startsWith("text/html")) return;
  if (!collector.countable(request.headers)) return;
  collector.record({
    websiteId,
    ts: Date.now(),
    host,
    name: PAGEVIEW,
    pathname: request.pathname,
    search: request.search,
    ip,
    userAgent: (request.headers.get("user-agent") ?? "").slice(0, 512),
    referer: request.headers.get("referer"),
  });
}
