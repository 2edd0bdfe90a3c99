import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { MatrixContext } from "./matrix.ts";

/** The protocol generations the endpoint serves: 2025 (initialize handshake) and 2026-07-28 (per-request envelope). */
export const protocolModes = [
  { name: "2025-11-25", negotiation: { mode: "legacy" as const } },
  { name: "2026-07-28", negotiation: { mode: { pin: "2026-07-28" } } },
];

/**
 * An official MCP client connected to the matrix's endpoint with an API key (in-process or over a socket); `query`
 * is appended to the MCP URL (`toolsets=cms`, `tools=discover`), `headers` are sent with every request.
 */
export async function connectMcp(
  ctx: MatrixContext,
  key: string,
  negotiation: (typeof protocolModes)[number]["negotiation"] = protocolModes[0]!.negotiation,
  options: { query?: string; headers?: Record<string, string> } = {},
): Promise<Client> {
  const client = new Client(
    { name: "sitewright-tests", version: "1.0.0" },
    { versionNegotiation: negotiation },
  );
  const transport = new StreamableHTTPClientTransport(
    new URL(`${ctx.origin}/v1/mcp${options.query ? `?${options.query}` : ""}`),
    {
      requestInit: { headers: { Authorization: `Bearer ${key}`, ...options.headers } },
      ...(ctx.mode === "in-process"
        ? {
            fetch: (url: string | URL, init?: RequestInit) =>
              Promise.resolve(ctx.t.app.fetch(new Request(url, init))),
          }
        : {}),
    },
  );
  await client.connect(transport);
  return client;
}

/** Parses the JSON text content of a tool result (the same JSON as structuredContent, or the error body). */
export function resultJson(result: { content?: unknown }): any {
  const content = result.content as { type: string; text: string }[];
  return JSON.parse(content[0]!.text);
}
