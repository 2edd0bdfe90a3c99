import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import type { H3 } from "h3";
import { PAGE } from "./setup.ts";

/** One `tools/call websites_list` exchange as an MCP client sends it: headers (minus auth) and body. */
export interface McpCallTemplate {
  protocol: "2025-11-25" | "2026-07-28";
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export const MCP_ORIGIN = "http://localhost:8787";

/**
 * Captures the `tools/call websites_list {limit: 20}` request the official client sends in each protocol
 * mode (2025-11-25 stateless POST; 2026-07-28 per-request `_meta` envelope with Mcp-Method/Mcp-Name),
 * checks it against the SDK's own classifier, and checks it against the brief's expected headers.
 */
export async function captureToolsCall(app: H3, key: string): Promise<McpCallTemplate[]> {
  const modes = [
    { protocol: "2025-11-25" as const, negotiation: { mode: "legacy" as const } },
    { protocol: "2026-07-28" as const, negotiation: { mode: { pin: "2026-07-28" } } },
  ];
  const templates: McpCallTemplate[] = [];
  for (const { protocol, negotiation } of modes) {
    let captured: McpCallTemplate | undefined;
    const client = new Client(
      { name: "sitewright-bench", version: "1.0.0" },
      { versionNegotiation: negotiation },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${MCP_ORIGIN}/v1/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      fetch: async (url: string | URL, init?: RequestInit) => {
        const request = new Request(url, init);
        const text = typeof init?.body === "string" ? init.body : "";
        if (text.includes('"tools/call"')) {
          const headers: Record<string, string> = {};
          for (const [name, value] of request.headers) if (name !== "authorization") headers[name] = value;
          captured = { protocol, headers, body: JSON.parse(text) };
        }
        return app.fetch(request);
      },
    });
    await client.connect(transport);
    const result = await client.callTool({ name: "websites_list", arguments: { limit: PAGE } });
    await client.close();
    if (result.isError || (result.structuredContent as { items: unknown[] }).items.length !== PAGE) {
      throw new Error(`The official client's ${protocol} websites_list call failed`);
    }
    if (!captured) throw new Error(`No tools/call captured for ${protocol}`);
    const outcome = classifyInboundRequest({
      httpMethod: "POST",
      protocolVersionHeader: captured.headers["mcp-protocol-version"],
      mcpMethodHeader: captured.headers["mcp-method"],
      mcpNameHeader: captured.headers["mcp-name"],
      body: captured.body,
    });
    const expected = protocol === "2025-11-25" ? "legacy" : "modern";
    if (outcome.kind !== expected) {
      throw new Error(`${protocol} tools/call classified ${outcome.kind}, expected ${expected}`);
    }
    const h = captured.headers;
    if (
      h["mcp-protocol-version"] !== protocol ||
      h["content-type"] !== "application/json" ||
      !/application\/json/.test(h.accept ?? "") ||
      !/text\/event-stream/.test(h.accept ?? "")
    ) {
      throw new Error(`Unexpected ${protocol} headers: ${JSON.stringify(h)}`);
    }
    templates.push(captured);
  }
  return templates;
}

/** A fresh request from a template: new JSON-RPC id, the given key. */
export function mcpRequest(template: McpCallTemplate, key: string, id: number): RequestInit {
  return {
    method: "POST",
    headers: { ...template.headers, authorization: `Bearer ${key}` },
    body: JSON.stringify({ ...template.body, id }),
  };
}

/** How a successful `websites_list` answer begins (a JSON body, or the one SSE event's data). */
const RESULT_START = '{"result":{"content":[{"type":"text","text":"{\\"items\\":[';
const SSE_DATA = "event: message\ndata: ";

const STRUCTURED = '"structuredContent":{"items":[';
/** Where `STRUCTURED` began in the last answer `mcpBodyOk` passed (answers within a round differ only in the id). */
let structuredAt = -1;

/**
 * Cheap per-response check (every response), about as cheap as REST's `startsWith`: the answer begins with a
 * `tools/call` result whose text block is the tool's output (a page of items; a tool error's text is the error
 * body, `{"kind":…`, and carries no structuredContent) and it carries `structuredContent` with the items. That
 * member is looked for first where the previous answer had it (the 5 KB text block comes before it, and searching
 * past it cost the bench's client ~2 µs per MCP request), else searched for. The payload is our own fixture, so the
 * substrings cannot occur by accident.
 */
export function mcpBodyOk(text: string): boolean {
  if (!text.startsWith(RESULT_START, text.startsWith(SSE_DATA) ? SSE_DATA.length : 0)) return false;
  if (structuredAt > RESULT_START.length && text.startsWith(STRUCTURED, structuredAt)) return true;
  const at = text.indexOf(STRUCTURED, RESULT_START.length);
  if (at < 0) return false;
  structuredAt = at;
  return true;
}

/** Full check (first response of every round): parse JSON or the SSE data line and inspect the result. */
export function mcpBodyVerified(text: string, contentType: string | null): boolean {
  const json = contentType?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6)
    : text;
  if (!json) return false;
  const message = JSON.parse(json) as {
    result?: { isError?: boolean; structuredContent?: { items: unknown[] }; content?: { text: string }[] };
  };
  const result = message.result;
  return (
    !!result &&
    result.isError !== true &&
    result.structuredContent?.items.length === PAGE &&
    JSON.stringify(JSON.parse(result.content![0]!.text)) === JSON.stringify(result.structuredContent)
  );
}
