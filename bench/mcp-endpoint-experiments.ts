// Not part of `npm run bench`: measures candidate changes to the MCP layer of src/mcp/endpoint.ts, each as the
// same construct (createMcpHandler + a light Server per request) answering a fixed websites_list result, so only
// the MCP layer is timed. Run: node --import tsx bench/mcp-endpoint-experiments.ts
import {
  createMcpHandler,
  isLegacyRequest,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { median, runGroup, table, type Variant } from "./harness.ts";
import { captureToolsCall, MCP_ORIGIN, type McpCallTemplate, mcpBodyOk, mcpRequest } from "./mcp-requests.ts";
import { createFixture, PAGE } from "./setup.ts";

const fx = await createFixture();
const key = (await fx.keys.reserve(1))(0);
const output = (await (
  await fx.app.fetch(
    new Request(`${MCP_ORIGIN}/v1/websites?limit=${PAGE}`, { headers: { authorization: `Bearer ${key}` } }),
  )
).json()) as Record<string, unknown>;
const templates = await captureToolsCall(fx.app, key);

const factory = () => {
  const server = new Server({ name: "sitewright", version: "0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", async () => ({ tools: [] }));
  server.setRequestHandler("tools/call", async () => ({
    content: [{ type: "text" as const, text: JSON.stringify(output) }],
    structuredContent: output,
  }));
  return server;
};
const dual = createMcpHandler(factory, { legacy: "stateless" });
const modernOnly = createMcpHandler(factory, { legacy: "reject" });

type Endpoint = (request: Request) => Promise<Response>;
const endpoints: Record<string, Endpoint> = {
  // What src/mcp/endpoint.ts does today: the SDK reads (and, for routing, clones) the body itself.
  "as today": (request) => dual.fetch(request),
  // The wrapper reads and parses the body once and hands it over: the SDK skips its clone and second read.
  "parsedBody from the wrapper": async (request) =>
    dual.fetch(request, { parsedBody: JSON.parse(await request.text()) }),
  // Additionally answer 2025-era calls with one JSON body instead of an SSE stream (hand-wired legacy leg).
  "parsedBody + JSON for 2025": async (request) => {
    const body = JSON.parse(await request.text());
    if (!(await isLegacyRequest(request, body))) return modernOnly.fetch(request, { parsedBody: body });
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    void transport.close();
    void server.close();
    return response;
  },
};

const variant = (name: string, endpoint: Endpoint, t: McpCallTemplate): Variant => ({
  name: `${name}\u0000${t.protocol}`,
  async round() {
    return async (i) => {
      const response = await endpoint(new Request(`${MCP_ORIGIN}/v1/mcp`, mcpRequest(t, key, i + 1)));
      const text = await response.text();
      if (response.status !== 200 || !mcpBodyOk(text)) throw new Error(`${name}: ${text.slice(0, 300)}`);
    };
  },
});
const variants = templates.flatMap((t) =>
  Object.entries(endpoints)
    .filter(([name]) => t.protocol === "2025-11-25" || !name.includes("2025"))
    .map(([name, endpoint]) => variant(name, endpoint, t)),
);
const group = await runGroup("mcp layer", variants, 1, { rounds: 11, roundMs: 120, warmupMs: 300 });
console.log(
  table(
    ["MCP layer variant", "protocol", "wall µs", "cpu µs"],
    variants.map((v) => {
      const [name, protocol] = v.name.split("\u0000") as [string, string];
      return [
        name,
        protocol,
        (1e6 / median(group.rates.get(v.name)!)).toFixed(0),
        median(group.cpu.get(v.name)!).toFixed(0),
      ];
    }),
  ),
);
await fx.close();
