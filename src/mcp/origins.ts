import { ApiError } from "../kernel/errors.ts";
import type { PlatformConfig } from "../kernel/platform.ts";

/** Request headers MCP clients send (both protocol generations), allowed in a CORS preflight. */
const REQUEST_HEADERS = [
  "Authorization",
  "Content-Type",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Last-Event-ID",
];
/** Response headers a browser client must read: the OAuth challenge, the session and protocol headers. */
const EXPOSED_HEADERS = "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, X-Request-Id";
/** Methods of the Streamable HTTP transport; GET and DELETE are answered 405 (stateless), readable cross-origin. */
const METHODS = "GET, POST, DELETE";

/** Where the server is reached: the origins and hosts that are its own, and the browser origins it serves. */
export interface OriginPolicy {
  /** Origins a browser may call from: the server's own and `SITEWRIGHT_ALLOWED_ORIGINS`. */
  allowedOrigins: ReadonlySet<string>;
  /** When the server listens on loopback: the only `Host` values it answers (DNS-rebinding defence). */
  ownHosts?: ReadonlySet<string>;
}

const loopbackNames = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The policy of a configuration: the base and app URLs are the server's own origins; with `loopbackPort`
 * (`sitewright dev`), so are `localhost`, `127.0.0.1` and `[::1]` on that port, and the `Host` must be one of them.
 */
export function originPolicyOf(config: PlatformConfig): OriginPolicy {
  const own = [new URL(config.appUrl), new URL(config.baseUrl)];
  const origins = new Set([...own.map((url) => url.origin), ...config.allowedOrigins]);
  if (config.loopbackPort === undefined) return { allowedOrigins: origins };
  const hosts = new Set(own.map((url) => url.host));
  for (const name of loopbackNames) {
    hosts.add(`${name}:${config.loopbackPort}`);
    origins.add(`http://${name}:${config.loopbackPort}`);
  }
  return { allowedOrigins: origins, ownHosts: hosts };
}

let cached:
  | {
      config: Pick<PlatformConfig, "appUrl" | "baseUrl" | "loopbackPort" | "allowedOrigins">;
      policy: OriginPolicy;
    }
  | undefined;

/**
 * The policy of `config` now (configurations may change in tests, by assignment: `allowedOrigins` is read-only),
 * computed once per distinct configuration.
 */
export function currentOriginPolicy(config: PlatformConfig): OriginPolicy {
  if (
    cached &&
    cached.config.appUrl === config.appUrl &&
    cached.config.baseUrl === config.baseUrl &&
    cached.config.loopbackPort === config.loopbackPort &&
    cached.config.allowedOrigins === config.allowedOrigins
  ) {
    return cached.policy;
  }
  const { appUrl, baseUrl, loopbackPort, allowedOrigins } = config;
  cached = { config: { appUrl, baseUrl, loopbackPort, allowedOrigins }, policy: originPolicyOf(config) };
  return cached.policy;
}

/**
 * Refuses a request from a foreign browser origin or, on a loopback server, for a foreign `Host` (a DNS-rebinding
 * page whose name now resolves to this machine). Returns the allowed cross-origin `Origin`, if any, for CORS.
 */
export function checkOrigin(policy: OriginPolicy, request: Request): string | undefined {
  // The Host matters only on a loopback server (an in-process request has none: its URL is parsed then).
  if (policy.ownHosts) {
    const host = request.headers.get("host") ?? new URL(request.url).host;
    if (!policy.ownHosts.has(host.toLowerCase())) {
      throw new ApiError("forbidden", `Host '${host}' is not this server's; the request was refused.`, {
        suggestion: "Call the server at the address it printed at start (localhost, 127.0.0.1 or [::1]).",
      });
    }
  }
  const origin = request.headers.get("origin");
  if (!origin) return undefined;
  if (!policy.allowedOrigins.has(origin)) {
    throw new ApiError("forbidden", `Origin '${origin}' may not call this endpoint.`, {
      suggestion: "Call from a server-side client, or add the origin to SITEWRIGHT_ALLOWED_ORIGINS.",
    });
  }
  return origin;
}

/** The CORS headers of an answer to an allowed browser origin. */
export const corsHeaders = (origin: string): Record<string, string> => ({
  "Access-Control-Allow-Origin": origin,
  "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  Vary: "Origin",
});

/** The answer to an `OPTIONS` request: a CORS preflight for an allowed origin, else the methods served. */
export function preflightResponse(request: Request, origin: string | undefined): Response {
  if (!origin) return new Response(null, { status: 204, headers: { Allow: "POST, OPTIONS" } });
  const requested = (request.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^mcp-param-[a-z0-9-]+$/.test(name));
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": METHODS,
      "Access-Control-Allow-Headers": [...REQUEST_HEADERS, ...requested].join(", "),
      "Access-Control-Max-Age": "600",
      Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    },
  });
}

/** `response` with `headers` added (a copy when its headers are immutable). */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}
