import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { H3 } from "h3";
import { authenticate } from "../src/auth/authenticate.ts";
import { ApiError, toApiError } from "../src/kernel/errors.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import type { Platform } from "../src/kernel/platform.ts";
import type { Principal } from "../src/kernel/principal.ts";
import { mcpTools } from "../src/mcp/tool-list.ts";
import { errorResponse } from "../src/rest/http.ts";
import { clientIp, requestIdOf } from "../src/rest/request-meta.ts";
import { registerRestRoutes } from "../src/rest/routes.ts";
import { version } from "../src/version.ts";

/**
 * The floor for REST: a bare h3 app whose one route serializes a payload of the same shape and size as
 * `GET /v1/websites?limit=20` (captured once from our app), with the same content-type header. No auth,
 * no database, no validation: what h3 + Request/Response cost by themselves.
 */
export function createBareApp(payload: unknown): H3 {
  const app = new H3();
  app.get("/v1/websites", () => {
    return new Response(JSON.stringify(payload), {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  });
  return app;
}

interface CallerInfo {
  principal: Principal;
  requestId: string;
}

/**
 * The SDK's documented stateless pattern: `createMcpHandler(() => { const server = new McpServer(...);
 * server.registerTool(...) for every tool; return server; })`, i.e. a fresh McpServer per request that
 * registers every MCP-visible tool of our registry with its zod input and output schemas and annotations,
 * each handler running our same pipeline (`callTool`). It sits behind the same wrapper as
 * `src/mcp/endpoint.ts` (method check, authentication, authInfo hand-over, error bodies; the Origin check
 * is skipped because the bench sends no Origin), so only the MCP layer differs.
 */
export function createSdkPatternMcpEndpoint(platform: Platform) {
  const tools = mcpTools(platform.registry.tools).map(({ tool }) => tool);
  const nameOperation = (id: string) => platform.registry.nameFor("mcp", id);
  const handler = createMcpHandler(
    ({ authInfo }) => {
      const caller = authInfo?.extra as unknown as CallerInfo;
      const server = new McpServer(
        { name: "sitewright", version },
        { capabilities: { tools: {} }, instructions: "Sitewright builds and runs websites." },
      );
      for (const tool of tools) {
        server.registerTool(
          tool.mcpName,
          {
            title: tool.title,
            description: tool.description,
            inputSchema: tool.input,
            outputSchema: tool.output,
            annotations: {
              title: tool.title,
              readOnlyHint: tool.annotations.readOnly,
              destructiveHint: tool.annotations.destructive,
              idempotentHint: tool.annotations.idempotent,
              openWorldHint: tool.annotations.openWorld,
            },
          },
          async (args: unknown) => {
            try {
              const output = await callTool(platform, tool, args ?? {}, {
                principal: caller.principal,
                transport: "mcp",
                requestId: caller.requestId,
              });
              return {
                content: [{ type: "text" as const, text: JSON.stringify(output) }],
                structuredContent: output as Record<string, unknown>,
              };
            } catch (error) {
              const body = toApiError(error).toBody(nameOperation);
              return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
            }
          },
        );
      }
      return server;
    },
    { legacy: "stateless", onerror: (error) => platform.log.error("mcp (sdk pattern)", error.message) },
  );

  return async (request: Request, ip: string, requestId: string): Promise<Response> => {
    try {
      if (request.method !== "POST") {
        return errorResponse(new ApiError("validation", "POST only.", { status: 405 }));
      }
      const principal = await authenticate(platform, request, ip);
      const caller: CallerInfo = { principal, requestId };
      return await handler.fetch(request, {
        authInfo: {
          token: "",
          clientId: principal.id,
          scopes: [],
          extra: caller as unknown as Record<string, unknown>,
        },
      });
    } catch (error) {
      return errorResponse(toApiError(error), nameOperation);
    }
  };
}

/**
 * The same application as `createApp` (same hooks, same REST routes, so routing costs the same), with the
 * SDK-pattern endpoint at `/v1/mcp` instead of ours.
 */
export function createSdkPatternApp(platform: Platform): H3 {
  const app = new H3({
    onResponse(response, event) {
      response.headers.set("X-Request-Id", requestIdOf(event));
    },
    onError(error) {
      return errorResponse(toApiError(error));
    },
  });
  const mcp = createSdkPatternMcpEndpoint(platform);
  app.all("/v1/mcp", (event) => mcp(event.req, clientIp(event, platform), requestIdOf(event)));
  registerRestRoutes(app, platform);
  return app;
}
