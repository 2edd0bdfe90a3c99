import {
  createMcpHandler,
  isJsonContentType,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { authenticate } from "../auth/authenticate.ts";
import type { Tool } from "../kernel/define-tool.ts";
import { ApiError, toApiError } from "../kernel/errors.ts";
import { checkJsonShape } from "../kernel/json-depth.ts";
import { canCall } from "../kernel/pipeline.ts";
import type { Platform } from "../kernel/platform.ts";
import type { Principal } from "../kernel/principal.ts";
import { resourceMetadataUrlOf, resourceOf, SCOPE_ALL } from "../oauth/settings.ts";
import { bodyLimit, readBodyText } from "../rest/body.ts";
import { errorResponse } from "../rest/http.ts";
import { eraClassifier, fastModernToolsCall, fastToolsCall, mcpHeadersOf, toolsCallOf } from "./fast-call.ts";
import { checkOrigin, corsHeaders, currentOriginPolicy, preflightResponse, withHeaders } from "./origins.ts";
import { narrowed, selectionOf } from "./selection.ts";
import { type CallerInfo, mcpServerFactory, SERVER_NAME, toolCaller } from "./server-factory.ts";
import { mcpTools } from "./tool-list.ts";

/**
 * The MCP endpoint (Streamable HTTP, stateless, any node answers any request). The body is read and parsed
 * once at the edge. A well-formed 2025-era `tools/call` is answered directly (see fast-call.ts); other
 * 2025-era requests are served by a stateless transport that answers with plain JSON; everything else (the 2026-07-28 per-request envelope, and anything malformed, which the SDK
 * answers with the protocol's own errors) goes to the SDK's serving entry, from the same server factory.
 */
export function createMcpEndpoint(platform: Platform, version: string, options: { fastPath?: boolean } = {}) {
  const serverFor = mcpServerFactory(platform, version);
  const call = toolCaller(platform);
  const callerOf = (authInfo: { extra?: Record<string, unknown> } | undefined) =>
    authInfo?.extra as unknown as CallerInfo;
  const entry = createMcpHandler(({ authInfo }) => serverFor(callerOf(authInfo)), {
    legacy: "stateless",
    onerror: (error) => platform.log.error("mcp", error.message),
  });
  const nameOperation = (id: string) => platform.registry.nameFor("mcp", id);
  const serverInfo = { name: SERVER_NAME, version };
  const byName = new Map(mcpTools(platform.registry.tools).map(({ tool }) => [tool.mcpName, tool]));
  const known = (name: string) => byName.has(name);
  const classify = eraClassifier();
  /** `resourceOf(platform)`, built again only when the base URL changed (tests assign configurations). */
  let resourceBase: string | undefined;
  let resourceUrl = "";
  const resource = () => {
    if (platform.config.baseUrl !== resourceBase) {
      resourceBase = platform.config.baseUrl;
      resourceUrl = resourceOf(platform);
    }
    return resourceUrl;
  };

  /**
   * A `tools/call` that only the consent's scope stands in the way of (a write tool on a read-only connection the
   * user's role would allow): answered 403 insufficient_scope, so the client can ask for more. A tool the user's
   * role itself lacks gets the ordinary `forbidden` tool error: re-authorizing could not help.
   */
  const toolBeyondGrant = (principal: Principal, body: unknown) => {
    if (!principal.readOnly || !body || typeof body !== "object" || Array.isArray(body)) return undefined;
    const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
    if (method !== "tools/call" || typeof params?.name !== "string") return undefined;
    const tool = byName.get(params.name);
    if (!tool || canCall(principal, tool)) return undefined;
    return canCall({ ...principal, readOnly: false }, tool) ? tool : undefined;
  };

  async function serveLegacy(request: Request, body: unknown, caller: CallerInfo) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await serverFor(caller).connect(transport);
    return transport.handleRequest(request, { parsedBody: body, authInfo: authInfoOf(caller) as never });
  }

  const serve = async (request: Request, ip: string, requestId: string): Promise<Response> => {
    if (request.method !== "POST") {
      throw new ApiError(
        "validation",
        `${request.method} is not supported: this endpoint is stateless and opens no streams; send JSON-RPC with POST.`,
        { status: 405, headers: { Allow: "POST" } },
      );
    }
    const credential = await authenticate(platform, request, ip, { oauthResource: resource() });
    const selection = selectionOf(request);
    const principal = narrowed(credential, selection);
    const caller: CallerInfo = { principal, requestId, ...(selection.discover ? { discover: true } : {}) };
    const text = await readBodyText(request, bodyLimit(platform.config, "api"));
    const body = parseJson(text);
    checkJsonShape(body);
    const beyond = credential.type === "oauth_token" ? toolBeyondGrant(credential, body) : undefined;
    if (beyond) return withRequestId(insufficientScope(platform, beyond), requestId);
    if (body === undefined || !isJsonContentType(request.headers.get("content-type"))) {
      const raw = new Request(request.url, { method: "POST", headers: request.headers, body: text });
      return withRequestId(await entry.fetch(raw, { authInfo: authInfoOf(caller) }), requestId);
    }
    // What the SDK's isLegacyRequest(request, body) computes, without its async wrapper; a request the
    // classifier refuses (a malformed envelope, say) is never fast-pathed: the SDK answers it.
    const parts = toolsCallOf(body);
    const headers = mcpHeadersOf(request);
    const era = classify(request.method, headers, body, parts);
    // The callers below are inline arrows: a named per-request closure costs a `__name` call under tsx. The fast
    // paths build their answers with the X-Request-Id; the SDK's answers get it set.
    if (era === "legacy") {
      const fast =
        options.fastPath !== false &&
        fastToolsCall(request, headers, parts, known, (name, args) => call(name, args, caller), requestId);
      return fast || withRequestId(await serveLegacy(request, body, caller), requestId);
    }
    const fastModern =
      options.fastPath !== false &&
      era === "modern" &&
      fastModernToolsCall(
        request,
        headers,
        parts,
        serverInfo,
        known,
        (name, args) => call(name, args, caller),
        requestId,
      );
    return (
      fastModern ||
      withRequestId(await entry.fetch(request, { authInfo: authInfoOf(caller), parsedBody: body }), requestId)
    );
  };

  return async (request: Request, ip: string, requestId: string): Promise<Response> => {
    let origin: string | undefined;
    try {
      origin = checkOrigin(currentOriginPolicy(platform.config), request);
      if (request.method === "OPTIONS") return withRequestId(preflightResponse(request, origin), requestId);
      const response = await serve(request, ip, requestId);
      return origin ? withHeaders(response, corsHeaders(origin)) : response;
    } catch (error) {
      const failure = toApiError(error);
      const response = withRequestId(errorResponse(failure, nameOperation), requestId);
      if (failure.kind === "unauthorized") {
        const presented = request.headers.has("authorization") ? ', error="invalid_token"' : "";
        response.headers.set(
          "WWW-Authenticate",
          `Bearer resource_metadata="${resourceMetadataUrlOf(platform)}", scope="${SCOPE_ALL}"${presented}`,
        );
      }
      return origin ? withHeaders(response, corsHeaders(origin)) : response;
    }
  };
}

/**
 * HTTP 403 for a tool the OAuth consent does not cover (tools/list never shows it): the scope it needs, so a
 * client can ask the user for a wider consent (step-up authorization).
 */
function insufficientScope(platform: Platform, tool: Tool): Response {
  const scope = tool.annotations.readOnly ? "mcp:read" : SCOPE_ALL;
  const response = errorResponse(
    new ApiError("forbidden", `This connection's consent does not cover ${tool.mcpName}.`, {
      suggestion:
        "Reconnect and grant write access (or the organization and websites this tool needs); tools/list shows what this connection can call.",
    }),
  );
  response.headers.set(
    "WWW-Authenticate",
    `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrlOf(platform)}", error_description="The consent does not cover ${tool.mcpName}"`,
  );
  return response;
}

/** `response` with its `X-Request-Id` (a copy when its headers are immutable). */
const withRequestId = (response: Response, requestId: string) =>
  withHeaders(response, { "X-Request-Id": requestId });

/** The SDK's auth info of a request: the caller rides in `extra`, for the server factory's handlers. */
const authInfoOf = (caller: CallerInfo) => ({
  token: "",
  clientId: caller.principal.id,
  scopes: [],
  extra: caller as unknown as Record<string, unknown>,
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
