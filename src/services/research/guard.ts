import type { BrowserContext, Request, Route } from "playwright-core";
import { SafeFetchError, type SafeFetchResult, safeFetch } from "../../oauth/safe-fetch.ts";
import type { ResearchConfig } from "./config.ts";

/** What a page's requests cost and what was refused, for the limits and for `research.measure`. */
export interface PageTraffic {
  requests: number;
  bytes: number;
  /** Bytes by the browser's resource type (document, stylesheet, script, image, font, fetch, …). */
  bytesByType: Record<string, number>;
  /** Requests refused: an address that is not public, a scheme other than http(s), a method other than GET. */
  refused: { url: string; reason: string }[];
  /** Set when the page went over a limit: the call fails with this reason. */
  overLimit?: string;
  /** Where the page's own navigation was redirected to; the session navigates there next. */
  redirect?: string;
  /** The status and headers of each answered URL (the last answer wins). */
  answers: Map<string, { status: number; contentType: string }>;
}

/** Redirects a subrequest may follow (each hop checked again). */
const MAX_REDIRECTS = 5;

const isRedirect = (answer: SafeFetchResult) =>
  answer.status >= 300 && answer.status < 400 && answer.headers.location !== undefined;

/** One hop: the page's time and byte budget left, loopback only for an origin the test switch names. */
async function fetchChecked(
  url: URL,
  request: Request,
  config: ResearchConfig,
  traffic: PageTraffic,
  deadline: number,
): Promise<SafeFetchResult> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new SafeFetchError("the page's time is up");
  const answer = await safeFetch(url, {
    timeoutMs: remaining,
    maxBytes: Math.max(1, config.maxPageBytes - traffic.bytes),
    allowLoopback: config.loopbackOrigins.includes(url.origin),
    allowHttp: true,
    accept: request.headers().accept ?? "*/*",
    headers: request.headers(),
  });
  traffic.bytes += answer.bytes.byteLength;
  return answer;
}

/** Response headers Chromium must not see from a fulfilled answer (the body is already whole and decoded). */
const DROPPED =
  /^(content-length|content-encoding|transfer-encoding|connection|keep-alive|alt-svc|strict-transport-security)$/i;

/**
 * Routes every request of `context` through the platform's safe fetch, so Chromium's own network is never used:
 * the URL's scheme must be http(s), its host is resolved here and refused unless every address is public (the
 * test switch `loopbackOrigins` admits named loopback origins only), the connection is pinned to the checked
 * address, and redirects come back to Chromium as answers, so each hop is routed and checked again. Only GET
 * and HEAD leave; the page's bytes and requests count against its limits.
 */
export async function guardContext(
  context: BrowserContext,
  config: ResearchConfig,
  deadline: number,
): Promise<PageTraffic> {
  const traffic: PageTraffic = { requests: 0, bytes: 0, bytesByType: {}, refused: [], answers: new Map() };
  const refuse = (route: Route, url: string, reason: string) => {
    if (traffic.refused.length < 50) traffic.refused.push({ url: url.slice(0, 300), reason });
    return route.abort("blockedbyclient").catch(() => undefined);
  };
  await context.route("**", async (route: Route, request: Request) => {
    const href = request.url();
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      return refuse(route, href, "not a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return refuse(route, href, `the ${url.protocol} scheme is not fetched`);
    }
    if (request.method() !== "GET" && request.method() !== "HEAD") {
      return refuse(route, href, `${request.method()} requests are not sent`);
    }
    if (traffic.overLimit) return refuse(route, href, traffic.overLimit);
    if (++traffic.requests > config.maxPageRequests) {
      traffic.overLimit = `the page made more than ${config.maxPageRequests} requests`;
      return refuse(route, href, traffic.overLimit);
    }
    try {
      let answer = await fetchChecked(url, request, config, traffic, deadline);
      // Chromium does not route the hops of a redirect it was handed, so redirects never reach it: the page's
      // own navigation is stopped and started again at the target (routed afresh), others are followed here.
      for (let hop = 0; isRedirect(answer); hop++) {
        const target = new URL(String(answer.headers.location), url);
        if (request.isNavigationRequest() && request.frame() === request.frame().page().mainFrame()) {
          traffic.redirect = target.href;
          return route.abort("aborted").catch(() => undefined);
        }
        if (hop >= MAX_REDIRECTS) throw new SafeFetchError(`more than ${MAX_REDIRECTS} redirects`);
        if (target.protocol !== "http:" && target.protocol !== "https:") {
          throw new SafeFetchError(`a redirect to the ${target.protocol} scheme`);
        }
        url = target;
        answer = await fetchChecked(url, request, config, traffic, deadline);
      }
      const type = request.resourceType();
      traffic.bytesByType[type] = (traffic.bytesByType[type] ?? 0) + answer.bytes.byteLength;
      const contentType = String(answer.headers["content-type"] ?? "");
      traffic.answers.set(href, { status: answer.status, contentType });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined || DROPPED.test(name)) continue;
        headers[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
      }
      await route.fulfill({ status: answer.status, headers, body: answer.bytes }).catch(() => undefined);
    } catch (error) {
      const reason = error instanceof SafeFetchError ? `${url.href}: ${error.message}` : String(error);
      if (/larger than/.test(reason)) {
        traffic.overLimit = `the page downloads more than ${config.maxPageBytes} bytes`;
      }
      return refuse(route, href, reason);
    }
  });
  await context.routeWebSocket("**", (socket) => socket.close({ code: 1008, reason: "not allowed" }));
  return traffic;
}
