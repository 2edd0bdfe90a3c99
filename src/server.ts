import type { IncomingMessage, ServerResponse } from "node:http";
import { H3 } from "h3";
import { serve } from "srvx";
import { registerApp } from "./app/index.ts";
import { createHosting, type Hosting, type HostingOptions } from "./hosting/index.ts";
import { registerTlsAsk } from "./hosting/tls-ask.ts";
import { ApiError, toApiError } from "./kernel/errors.ts";
import type { Platform } from "./kernel/platform.ts";
import { createMcpEndpoint } from "./mcp/endpoint.ts";
import { registerOAuth } from "./oauth/index.ts";
import { errorResponse } from "./rest/http.ts";
import { clientIp, requestIdOf } from "./rest/request-meta.ts";
import { registerRestRoutes } from "./rest/routes.ts";
import { version } from "./version.ts";

/**
 * The HTTP application: published websites and draft previews on their own hosts (`<slug>.<sitesDomain>`,
 * `preview--<slug>.<sitesDomain>`), and on every other host REST `/v1`, OpenAPI, and MCP at `/v1/mcp`.
 * `app.fetch(request)` serves in-process.
 */
export function createApp(platform: Platform, options: { hosting?: HostingOptions } = {}): H3 {
  const hosting = createHosting(platform, options.hosting);
  const app = new H3({
    onResponse(response, event) {
      response.headers.set("X-Request-Id", requestIdOf(event));
    },
    onError(error, event) {
      const status = (error as { status?: number }).status;
      if (event.context.site || hosting.match(event)) return hosting.errorResponse(event, status ?? 500);
      if (status === 404 || status === 405) {
        return errorResponse(new ApiError("not_found", "No such resource."));
      }
      platform.log.error("unhandled", error);
      return errorResponse(toApiError(error));
    },
  });
  // An ApiError a route lets out (a refused request body, for one) is a deliberate answer: its status and body.
  app.use(async (_event, next) => {
    try {
      return await next();
    } catch (error) {
      if (error instanceof ApiError) return errorResponse(error);
      throw error;
    }
  });
  // Site hosts are answered by hosting before any API route; the API host goes on to the routes below.
  app.use(async (event, next) => {
    const site = await hosting.resolve(event);
    if (!site) return next();
    event.context.site = site;
    return hosting.serve(event, site, clientIp(event, platform));
  });
  registerTlsAsk(app, platform);
  const mcp = createMcpEndpoint(platform, version);
  app.all("/v1/mcp", (event) => mcp(event.req, clientIp(event, platform), requestIdOf(event)));
  registerOAuth(app, platform);
  registerRestRoutes(app, platform);
  registerApp(app, platform);
  hostingOf.set(app, hosting);
  return app;
}

/** The hosting of each app, for `listen`'s fast path. */
const hostingOf = new WeakMap<H3, Hosting>();

export interface Listening {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The app, or what builds it once the port is bound (URLs that name the port need the real one of port 0). */
export type AppOrFactory = H3 | ((port: number) => H3 | Promise<H3>);

/**
 * Serves the app on `port` (0 picks a free one) on loopback or `hostname`. The port is bound first: a busy port
 * fails (`EADDRINUSE`) before a factory runs, and a factory gets the real port. GETs and HEADs of live sites are
 * answered on node:http directly (hosting's fast path, the same replies); everything else goes through srvx to h3.
 * Requests that arrive while a factory builds the app get 503.
 */
export async function listen(app: AppOrFactory, port: number, hostname = "127.0.0.1"): Promise<Listening> {
  let fetch: (request: Request) => Response | Promise<Response> = () =>
    new Response("Starting", { status: 503, headers: { "retry-after": "1" } });
  let hosting: Hosting | undefined;
  const server = serve({
    fetch: (request) => fetch(request),
    port,
    hostname,
    silent: true,
    gracefulShutdown: false,
    manual: true,
  });
  const node = server.node;
  if (node?.server) {
    const handler = node.handler as (req: IncomingMessage, res: ServerResponse) => void;
    node.server.removeAllListeners("request");
    node.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      if (!hosting?.serveNode(req, res)) handler(req, res);
    });
  }
  await server.serve();
  const actual = Number(new URL(server.url!).port);
  try {
    const built = typeof app === "function" ? await app(actual) : app;
    hosting = hostingOf.get(built);
    fetch = built.fetch;
  } catch (error) {
    await server.close(true);
    throw error;
  }
  return {
    url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${actual}`,
    port: actual,
    close: () => server.close(true),
  };
}
