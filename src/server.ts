import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { H3, type H3Event } from "h3";
import { toNodeHandler } from "srvx/node";
import { registerApp } from "./app/index.ts";
import { siteHostMatcher } from "./hosting/host.ts";
import { createHosting, type Hosting, type HostingOptions } from "./hosting/index.ts";
import { registerTlsAsk } from "./hosting/tls-ask.ts";
import { ApiError, toApiError } from "./kernel/errors.ts";
import type { Platform } from "./kernel/platform.ts";
import { reportFailure } from "./kernel/request-scope.ts";
import { createMcpEndpoint } from "./mcp/endpoint.ts";
import { registerOAuth } from "./oauth/index.ts";
import { registerHealthRoutes } from "./observability/health.ts";
import { registerMetricsRoute } from "./observability/metrics-route.ts";
import { observeRequest } from "./observability/requests.ts";
import { errorResponse } from "./rest/http.ts";
import {
  answersWithRequestId,
  clientIp,
  OWN_REQUEST_ID,
  requestIdOf,
  stampRequestId,
} from "./rest/request-meta.ts";
import { registerRestRoutes } from "./rest/routes.ts";
import { version } from "./version.ts";

/**
 * The HTTP application: published websites and draft previews on their own hosts (`<slug>.<sitesDomain>`,
 * `preview--<slug>.<sitesDomain>`), and on every other host REST `/v1`, OpenAPI, and MCP at `/v1/mcp`.
 * `app.fetch(request)` serves in-process.
 */
export function createApp(platform: Platform, options: { hosting?: HostingOptions } = {}): H3 {
  const hosting = createHosting(platform, options.hosting);
  // Every response carries X-Request-Id: operation routes build their answers with it, the middleware below gives
  // it to other routes' answers, onError to error answers.
  const app = new H3({
    onError(error, event) {
      const status = (error as { status?: number }).status;
      if (event.context.site || hosting.match(event)) {
        return stampRequestId(event, hosting.errorResponse(event, status ?? 500));
      }
      if (status === 404 || status === 405) {
        return stampRequestId(event, errorResponse(new ApiError("not_found", "No such resource.")));
      }
      reportFailure(platform.log, "unhandled", error);
      return stampRequestId(event, errorResponse(toApiError(error)));
    },
  });
  // Site hosts are answered by hosting before any API route; the API and app hosts (as configured, compared as sent)
  // go straight on to the routes below, any other host after hosting found no site for it.
  const ownHosts = apiHosts(platform);
  const siteOrRoutes = async (event: H3Event, next: () => unknown) => {
    const site = await hosting.resolve(event);
    if (!site) return next();
    event.context.site = site;
    return hosting.serve(event, site, clientIp(event, platform));
  };
  app.use((event, next) =>
    answering(
      event,
      ownHosts.has(event.req.headers.get("host") ?? event.url.host) ? next : () => siteOrRoutes(event, next),
    ),
  );
  registerTlsAsk(app, platform);
  const mcp = createMcpEndpoint(platform, version);
  app.all("/v1/mcp", (event) => mcp(event.req, clientIp(event, platform), requestIdOf(event)), {
    meta: OWN_REQUEST_ID,
  });
  registerHealthRoutes(app, platform);
  registerMetricsRoute(app, platform);
  registerOAuth(app, platform);
  registerRestRoutes(app, platform);
  registerApp(app, platform);
  builtWith.set(app, { hosting, platform });
  return app;
}

/**
 * The API and app hosts as a Host header names them (`localhost:8787`): no site is served there, so their requests
 * skip hosting's resolution. A configured host that is also a site host (`<slug>.<sitesDomain>`) stays with hosting.
 */
function apiHosts(platform: Platform): Set<string> {
  const site = siteHostMatcher(platform.config.sitesDomain);
  const hosts = [platform.config.baseUrl, platform.config.appUrl].map((url) => new URL(url).host);
  return new Set(hosts.filter((host) => !site(host)));
}

/**
 * What a route answered, with its X-Request-Id. An ApiError a route lets out (a refused request body, for one) is
 * a deliberate answer: its status and body. Anything else thrown goes on to `onError`. Operation routes answer
 * everything themselves, with the id: their answers pass as they are.
 */
function answering(event: H3Event, next: () => unknown): unknown {
  if (answersWithRequestId(event)) return next();
  let result: unknown;
  try {
    result = next();
  } catch (error) {
    return stampRequestId(event, apiErrorResponse(error));
  }
  return typeof (result as Promise<unknown> | undefined)?.then === "function"
    ? (result as Promise<unknown>).then(
        (value) => stamped(event, value),
        (error: unknown) => stampRequestId(event, apiErrorResponse(error)),
      )
    : stamped(event, result);
}

/** A route's answer with its X-Request-Id: set on a Response, or on h3's prepared headers for a plain value. */
function stamped(event: H3Event, value: unknown): unknown {
  if (value instanceof Response) return stampRequestId(event, value);
  if (typeof value !== "symbol" && !(value instanceof Error)) {
    event.res.headers.set("X-Request-Id", requestIdOf(event));
  }
  return value;
}

function apiErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error);
  throw error;
}

/** The hosting and platform of each app, for `listen`'s fast path, request logs and draining. */
const builtWith = new WeakMap<H3, { hosting: Hosting; platform: Platform }>();

export interface Listening {
  url: string;
  port: number;
  /** Stops at once: open connections are cut. */
  close(): Promise<void>;
  /**
   * Stops gracefully: `/readyz` answers 503 (draining) and responses close their connections; after `delayMs`
   * (time for a proxy's health check to notice) new connections are refused; requests in flight (a build
   * included) get up to `timeoutMs` to finish, then the rest are cut. Resolves with how many were cut.
   */
  drain(options: { delayMs: number; timeoutMs: number }): Promise<{ cut: number }>;
}

/** The app, or what builds it once the port is bound (URLs that name the port need the real one of port 0). */
export type AppOrFactory = H3 | ((port: number) => H3 | Promise<H3>);

/**
 * Serves the app on `port` (0 picks a free one) on loopback or `hostname`. The port is bound first: a busy port
 * fails (`EADDRINUSE`) before a factory runs, and a factory gets the real port. GETs and HEADs of live sites are
 * answered on node:http directly (hosting's fast path, the same replies); everything else goes to h3 through
 * srvx's node adapter (`toNodeHandler`). Requests that arrive while a factory builds the app get 503.
 */
export async function listen(app: AppOrFactory, port: number, hostname = "127.0.0.1"): Promise<Listening> {
  let fetch: (request: Request) => Response | Promise<Response> = () =>
    new Response("Starting", { status: 503, headers: { "retry-after": "1" } });
  let hosting: Hosting | undefined;
  let platform: Platform | undefined;
  let inFlight = 0;
  let idle: (() => void) | undefined;
  // The adapter's handler serves node:http or node:http2; this server is node:http. A failure the app let out
  // (h3 answers its own errors) is a bare 500, as srvx's server answers it.
  const handler = toNodeHandler(async (request) => {
    try {
      return await fetch(request);
    } catch {
      return new Response(null, { status: 500 });
    }
  }) as (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
  const serveApp = (req: IncomingMessage, res: ServerResponse) => {
    if (!validTarget(req.url)) {
      res.statusCode = 400;
      res.end();
    } else void handler(req, res);
  };
  const server = createServer((req, res) => {
    inFlight++;
    res.once("close", () => {
      if (--inFlight === 0) idle?.();
    });
    if (!platform) return serveApp(req, res);
    if (platform.lifecycle.draining) res.shouldKeepAlive = false;
    observeRequest(platform, req, res, () => {
      if (!hosting?.serveNode(req, res)) serveApp(req, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: hostname, exclusive: true }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      if (!server.listening) return resolve();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  try {
    const built = typeof app === "function" ? await app(actual) : app;
    ({ hosting, platform } = builtWith.get(built) ?? {});
    fetch = built.fetch;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${actual}`,
    port: actual,
    close,
    async drain({ delayMs, timeoutMs }) {
      if (platform) platform.lifecycle.draining = true;
      await sleep(delayMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      const cut = inFlight;
      server.closeAllConnections();
      await closed;
      return { cut };
    },
  };
}

/** A request target h3 can read: a path, `*`, or an absolute http(s) URL (anything else is answered 400). */
function validTarget(target: string | undefined): boolean {
  if (!target || target[0] === "/" || target === "*") return true;
  const url = URL.parse(target);
  return (url?.protocol === "http:" || url?.protocol === "https:") && url.host !== "";
}
