import { PAGEVIEW } from "../../db/stores/analytics-sql.ts";
import type { Collector, HitHeaders } from "./collector.ts";

/**
 * Counts a live site's reply as a page view when it is one: a GET answered 200 with HTML, or 304 to a document
 * request (not an asset, a redirect or a 404), from a client that may be counted. Copies the few strings it needs and returns at once.
 */
export function recordPageView(
  collector: Collector,
  websiteId: string,
  host: string,
  request: { method: string; pathname: string; search: string; headers: HitHeaders },
  reply: { status: number; headers: Record<string, string> },
  ip: string,
): void {
  if (request.method !== "GET") return;
  // A revalidated page (304, a returning visitor's browser cache) carries no type: a document request is one.
  const page =
    reply.status === 200
      ? reply.headers["content-type"]?.startsWith("text/html")
      : reply.status === 304 &&
        (request.headers.get("sec-fetch-dest") === "document" ||
          request.headers.get("accept")?.startsWith("text/html"));
  if (!page) return;
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
