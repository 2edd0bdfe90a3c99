import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import type { ToolCallResult } from "./server-factory.ts";

const legacyVersions = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * The hot path of agents: a well-formed 2025-era stateless `tools/call`, answered with the same JSON-RPC
 * result the SDK's stateless transport produces, without building a Server and transport per call.
 * Anything unusual (other methods, notifications, batches, odd params, headers the SDK would refuse)
 * returns undefined and is served by the SDK, which owns the protocol's error answers.
 */
export function fastToolsCall(
  request: Request,
  body: unknown,
  call: (name: string, args: Record<string, unknown> | undefined) => Promise<ToolCallResult>,
): Promise<Response> | undefined {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = body as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/call" || Object.keys(rest).length > 0) return undefined;
  if (typeof id !== "string" && (typeof id !== "number" || !Number.isInteger(id))) return undefined;
  if (!params || typeof params !== "object" || Array.isArray(params)) return undefined;
  const { name, arguments: args, ...extra } = params as Record<string, unknown>;
  if (typeof name !== "string" || Object.keys(extra).length > 0) return undefined;
  if (args !== undefined && (!args || typeof args !== "object" || Array.isArray(args))) return undefined;
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !legacyVersions.has(version)) return undefined;
  return call(name, args as Record<string, unknown> | undefined).then(
    (result) =>
      new Response(JSON.stringify({ result, jsonrpc: "2.0", id }), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
  );
}
