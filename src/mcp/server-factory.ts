import { Server } from "@modelcontextprotocol/server";
import { ApiError, toApiError } from "../kernel/errors.ts";
import { callTool } from "../kernel/pipeline.ts";
import type { Principal } from "../kernel/principal.ts";
import type { Platform } from "../platform.ts";
import { mcpTools, toolsVisibleTo } from "./tool-list.ts";

const instructions = `Sitewright builds and runs websites. Start with websites_list or websites_create; every website-scoped tool takes a websiteId. Failed calls return {kind, message, suggestion?, validValues?} as JSON; follow the suggestion, which names the tool to call next.`;

/** The server's name in `initialize` results and the 2026 envelope's serverInfo. */
export const SERVER_NAME = "sitewright";

/** Who is calling: handed from the HTTP edge to the tool handlers as the request's auth info. */
export interface CallerInfo {
  principal: Principal;
  requestId: string;
}

export type ToolCallResult =
  | { content: { type: "text"; text: string }[]; structuredContent: Record<string, unknown> }
  | { isError: true; content: { type: "text"; text: string }[] };

/** Runs one `tools/call` through the shared pipeline: the tool's output, or the error body as an `isError` result. */
export function toolCaller(platform: Platform) {
  const byName = new Map(mcpTools(platform.registry.tools).map((entry) => [entry.tool.mcpName, entry.tool]));
  const nameOperation = (id: string) => platform.registry.nameFor("mcp", id);
  return async (name: string, args: unknown, caller: CallerInfo): Promise<ToolCallResult> => {
    try {
      const tool = byName.get(name);
      if (!tool) {
        throw new ApiError("not_found", `No tool named '${name}'.`, {
          suggestion: "Call tools/list to see the tools this credential can call.",
        });
      }
      const output = await callTool(platform, tool, args ?? {}, {
        principal: caller.principal,
        transport: "mcp",
        requestId: caller.requestId,
      });
      return {
        content: [{ type: "text", text: JSON.stringify(output) }],
        structuredContent: output as Record<string, unknown>,
      };
    } catch (error) {
      const body = toApiError(error).toBody(nameOperation);
      return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
    }
  };
}

/**
 * Builds the per-request MCP server: a light low-level Server whose two handlers read precomputed tool
 * descriptions and run the shared call pipeline, so nothing is converted or registered per request.
 */
export function mcpServerFactory(platform: Platform, version: string) {
  const tools = mcpTools(platform.registry.tools);
  const call = toolCaller(platform);
  return (caller: CallerInfo): Server => {
    const server = new Server({ name: SERVER_NAME, version }, { capabilities: { tools: {} }, instructions });
    server.setRequestHandler("tools/list", async () => ({ tools: toolsVisibleTo(caller.principal, tools) }));
    server.setRequestHandler("tools/call", (request) =>
      call(request.params.name, request.params.arguments, caller),
    );
    return server;
  };
}
