import {
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import type { ToolCallResult } from "./server-factory.ts";

const legacyVersions = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

/** The parts of a single well-formed `tools/call` request (with `_meta` only when `withMeta`), or undefined. */
function toolsCallOf(body: unknown, withMeta: boolean) {
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = body as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/call" || Object.keys(rest).length > 0) return undefined;
  if (typeof id !== "string" && (typeof id !== "number" || !Number.isSafeInteger(id))) return undefined;
  if (!params || typeof params !== "object" || Array.isArray(params)) return undefined;
  const { name, arguments: args, _meta: meta, ...extra } = params as Record<string, unknown>;
  if (typeof name !== "string" || Object.keys(extra).length > 0 || (!withMeta && meta !== undefined)) {
    return undefined;
  }
  if (args !== undefined && (!args || typeof args !== "object" || Array.isArray(args))) return undefined;
  return { id, name, args: args as Record<string, unknown> | undefined, meta };
}

/** The era the SDK's `classifyInboundRequest` gives a request (`legacy`, `modern`, or a rejection). */
export type Era = ReturnType<typeof classifyInboundRequest>["kind"];

/**
 * `classifyInboundRequest(...).kind` of a request, remembered for single well-formed `tools/call` bodies (at most
 * `maxEntries` distinct ones). Their classification reads the HTTP method, the three MCP headers and the body's
 * JSON-RPC shape, method and `_meta` envelope, never the arguments or the id's value (a string or a safe integer
 * here), and an agent sends the same envelope with every call: classifying it once (~17 µs) is enough. Anything
 * else is classified every time.
 */
export function eraClassifier(maxEntries = 256): (request: Request, body: unknown) => Era {
  const known = new Map<string, Era>();
  return (request, body) => {
    const headers = request.headers;
    const input = {
      httpMethod: request.method,
      protocolVersionHeader: headers.get("mcp-protocol-version") ?? undefined,
      mcpMethodHeader: headers.get("mcp-method") ?? undefined,
      mcpNameHeader: headers.get("mcp-name") ?? undefined,
      body,
    };
    const call = toolsCallOf(body, true);
    if (!call) return classifyInboundRequest(input).kind;
    const { httpMethod, protocolVersionHeader, mcpMethodHeader, mcpNameHeader } = input;
    const key = JSON.stringify([
      httpMethod,
      protocolVersionHeader ?? null,
      mcpMethodHeader ?? null,
      mcpNameHeader ?? null,
      typeof call.id,
      call.name,
      call.meta === undefined,
      call.meta ?? null,
    ]);
    let era = known.get(key);
    if (era === undefined) {
      era = classifyInboundRequest(input).kind;
      if (known.size >= maxEntries) known.delete(known.keys().next().value as string);
      known.set(key, era);
    }
    return era;
  };
}

/**
 * The hot path of agents: a well-formed 2025-era stateless `tools/call`, answered with the same JSON-RPC
 * result the SDK's stateless transport produces, without building a Server and transport per call.
 * Anything unusual (other methods, notifications, batches, odd params, a tool name that is not `known`, headers
 * the SDK would refuse) returns undefined and is served by the SDK, which owns the protocol's error answers.
 */
export function fastToolsCall(
  request: Request,
  body: unknown,
  known: (name: string) => boolean,
  call: (name: string, args: Record<string, unknown> | undefined) => Promise<ToolCallResult>,
): Promise<Response> | undefined {
  const parsed = toolsCallOf(body, false);
  if (!parsed || !known(parsed.name)) return undefined;
  const { id, name, args } = parsed;
  const accept = request.headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !legacyVersions.has(version)) return undefined;
  return call(name, args).then((result) => jsonRpcResponse(id, result, ""));
}

/**
 * The JSON-RPC answer `{result: {...result, ...extra}, jsonrpc, id}` as text, in the SDK's key order. A tool's
 * output is serialized once: `structuredContent` is written as the text of its one text block, which `toolCaller`
 * made with `JSON.stringify` of that same output (anything else is serialized in full). `extra` is `,"key":value…`.
 */
function jsonRpcResponse(id: string | number, result: ToolCallResult, extra: string): Response {
  const [block, ...more] = result.content;
  const structured = "structuredContent" in result ? result.structuredContent : undefined;
  const body =
    structured !== undefined && block?.type === "text" && more.length === 0 && !("isError" in result)
      ? `{"result":{"content":[${JSON.stringify(block)}],"structuredContent":${block.text}${extra}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`
      : `{"result":${JSON.stringify(result).slice(0, -1)}${extra}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

const MODERN_VERSION = "2026-07-28";
/** The envelope keys a modern client sends in `params._meta`; anything else goes to the SDK. */
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  "io.modelcontextprotocol/clientInfo",
  "io.modelcontextprotocol/clientCapabilities",
]);

/**
 * The same hot path for the 2026-07-28 per-request envelope: a single `tools/call` whose `_meta` claims that
 * version, with the standard headers agreeing with the body (`MCP-Protocol-Version`, `Mcp-Method`, a plain
 * `Mcp-Name`) and no `Mcp-Param-*` headers (no tool declares any), for a `known` tool. It answers what the SDK answers: the tool
 * result with `resultType: "complete"` and the server's info in `_meta`. Anything else returns undefined.
 */
export function fastModernToolsCall(
  request: Request,
  body: unknown,
  serverInfo: { name: string; version: string },
  known: (name: string) => boolean,
  call: (name: string, args: Record<string, unknown> | undefined) => Promise<ToolCallResult>,
): Promise<Response> | undefined {
  const parsed = toolsCallOf(body, true);
  if (!parsed || !known(parsed.name)) return undefined;
  const { id, name, args, meta } = parsed;
  if (!meta || typeof meta !== "object" || Array.isArray(meta)) return undefined;
  const envelope = meta as Record<string, unknown>;
  if (envelope[PROTOCOL_VERSION_META_KEY] !== MODERN_VERSION) return undefined;
  if (Object.keys(envelope).some((key) => !ENVELOPE_KEYS.has(key))) return undefined;
  const headers = request.headers;
  const accept = headers.get("accept") ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (headers.get("mcp-protocol-version") !== MODERN_VERSION) return undefined;
  if (headers.get("mcp-method") !== "tools/call" || headers.get("mcp-name") !== name) return undefined;
  if (headers.has("mcp-session-id")) return undefined;
  for (const header of headers.keys()) if (header.startsWith("mcp-param-")) return undefined;
  const extra = `,"resultType":"complete","_meta":${JSON.stringify({ "io.modelcontextprotocol/serverInfo": serverInfo })}`;
  return call(name, args as Record<string, unknown> | undefined).then((result) =>
    jsonRpcResponse(id, result, extra),
  );
}
