import { join } from "node:path";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import BetterSqlite3 from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { H3 } from "h3";
import { authenticate } from "../src/auth/authenticate.ts";
import { hashSecret } from "../src/auth/secrets.ts";
import { tables } from "../src/db/schema/sqlite.ts";
import { bindStores } from "../src/db/stores/index.ts";
import { checkJsonShape } from "../src/kernel/json-depth.ts";
import { fitOutput } from "../src/kernel/output-fit.ts";
import { callTool } from "../src/kernel/pipeline.ts";
import {
  eraClassifier,
  fastModernToolsCall,
  fastToolsCall,
  mcpHeadersOf,
  toolsCallOf,
} from "../src/mcp/fast-call.ts";
import { mcpTools } from "../src/mcp/tool-list.ts";
import { readBodyText } from "../src/rest/body.ts";
import { json } from "../src/rest/http.ts";
import { median, runGroup, type Settings, type Variant } from "./harness.ts";
import { MCP_ORIGIN, type McpCallTemplate, mcpBodyOk, mcpRequest } from "./mcp-requests.ts";
import { type Fixture, PAGE } from "./setup.ts";

export interface Stage {
  section: string;
  stage: string;
  /** Median wall-clock µs per operation. */
  us: number;
  /** Median process CPU µs per operation. */
  cpuUs: number;
}

/**
 * Where one request goes: each stage of the path timed on its own, in the same interleaved rounds
 * (in-process, sequential), next to the whole request and the floors it is compared with.
 */
export async function breakdown(
  fx: Fixture,
  bare: H3,
  templates: McpCallTemplate[],
  settings: Settings,
): Promise<Stage[]> {
  const { platform } = fx;
  const list = platform.registry.byOperationId("websites.list")!;
  const url = `${MCP_ORIGIN}/v1/websites?limit=${PAGE}`;
  const secret = (await fx.keys.reserve(1))(0);
  const principal = await authenticate(
    platform,
    new Request(url, { headers: { authorization: `Bearer ${secret}` } }),
    "unknown",
  );
  const call = { principal, transport: "rest" as const, requestId: "req_bench" };
  const output = (await callTool(platform, list, { limit: PAGE }, call)) as Record<string, unknown>;
  const hash = hashSecret(secret);
  const reach = { organizationIds: [fx.local.organization.id], websiteIds: [] };

  // The SQL the two stores run, captured from drizzle on a second, read-only connection: what SQLite itself
  // costs with a statement prepared per query (as drizzle's query builder does) and with a cached one.
  const sqlite = new BetterSqlite3(join(fx.dir, "bench.db"), { readonly: true });
  const queries: { sql: string; params: unknown[] }[] = [];
  const stores = bindStores(
    drizzle(sqlite, { logger: { logQuery: (sql, params) => queries.push({ sql, params }) } }),
    tables,
    "sqlite",
  );
  await stores.apiKeys.findBySecretHash(hash);
  await stores.websites.list(reach, { limit: PAGE + 1 });
  const cached = queries.map((q) => ({ stmt: sqlite.prepare(q.sql), params: q.params }));

  const stage = (section: string, name: string, op: (key: string) => unknown): Variant => ({
    name: `${section}\u0000${name}`,
    async round(n) {
      const keyFor = await fx.keys.reserve(n);
      return async (i) => {
        await op(keyFor(i));
      };
    },
  });
  const mcpStage = (
    section: string,
    name: string,
    fetch: (r: Request) => Promise<Response>,
    t: McpCallTemplate,
  ) =>
    stage(section, `${name}, ${t.protocol}`, async (key) => {
      const response = await fetch(new Request(`${MCP_ORIGIN}/v1/mcp`, mcpRequest(t, key, 1)));
      const text = await response.text();
      if (response.status !== 200 || !mcpBodyOk(text)) throw new Error(`${name}: ${text.slice(0, 200)}`);
    });

  const ourLayer = mcpLayerAlone(output);
  const sdkLayer = sdkPatternLayerAlone(fx, output);
  const REST = "REST GET /v1/websites";
  const SQL = "SQLite floor for the same two queries";
  const MCP = "MCP tools/call websites_list";
  const variants: Variant[] = [
    stage(REST, "whole request (app.fetch + read body)", async (key) => {
      const response = await fx.app.fetch(new Request(url, { headers: { authorization: `Bearer ${key}` } }));
      if (response.status !== 200)
        throw new Error(`${response.status}: ${(await response.text()).slice(0, 300)}`);
      await response.text();
    }),
    // The client's part of the whole request: an MCP call is a POST with its headers and a JSON body to encode.
    stage(
      REST,
      "  of which the client's Request (GET, Authorization)",
      (key) => new Request(url, { headers: { authorization: `Bearer ${key}` } }),
    ),
    stage(REST, "bare h3 floor (app.fetch + read body)", async () => {
      await (await bare.fetch(new Request(url))).text();
    }),
    stage(REST, "authenticate()", (key) =>
      authenticate(platform, new Request(url, { headers: { authorization: `Bearer ${key}` } }), "unknown"),
    ),
    stage(REST, "  of which db.read(apiKeys.findBySecretHash)", () =>
      platform.db.read((s) => s.apiKeys.findBySecretHash(hash)),
    ),
    // A fresh bucket per bench key, as in a real request, so the stage never runs a bucket dry.
    stage(REST, "callTool(websites.list)", (key) =>
      callTool(platform, list, { limit: PAGE }, { ...call, principal: { ...principal, bucketKey: key } }),
    ),
    stage(REST, "  of which db.read(websites.list)", () =>
      platform.db.read((s) => s.websites.list(reach, { limit: PAGE + 1 })),
    ),
    stage(REST, "  of which output schema parse (zod)", () => list.output.parse(output)),
    stage(REST, "  of which output check (fitOutput, what runs)", () => fitOutput(list.output, output)),
    stage(REST, "json(output) (stringify + Response)", () => json(output)),
    stage(SQL, "better-sqlite3 prepare + run, both queries", () => {
      for (const q of queries)
        sqlite
          .prepare(q.sql)
          .raw()
          .all(...(q.params as unknown[]));
    }),
    stage(SQL, "better-sqlite3 cached statements, both queries", () => {
      for (const q of cached) q.stmt.raw().all(...(q.params as unknown[]));
    }),
  ];
  for (const t of templates) {
    variants.push(
      mcpStage(MCP, "whole request, ours", async (r) => fx.app.fetch(r), t),
      stage(
        MCP,
        `  of which the client's Request (POST, MCP headers, JSON body), ${t.protocol}`,
        (key) => new Request(`${MCP_ORIGIN}/v1/mcp`, mcpRequest(t, key, 1)),
      ),
      mcpStage(MCP, "our MCP layer alone (fast path; no auth, no pipeline)", ourLayer, t),
      mcpStage(MCP, "SDK-pattern layer alone (no auth, no pipeline)", sdkLayer, t),
    );
  }
  const group = await runGroup("breakdown", variants, 1, settings);
  sqlite.close();
  return variants.map((v) => {
    const [section, name] = v.name.split("\u0000") as [string, string];
    return {
      section,
      stage: name,
      us: 1e6 / median(group.rates.get(v.name)!),
      cpuUs: median(group.cpu.get(v.name)!),
    };
  });
}

/**
 * What src/mcp/endpoint.ts does for a well-formed `tools/call` once authenticated: read and parse the body once,
 * check its shape, classify it, and answer through the fast path of its protocol, here with a fixed result.
 */
function mcpLayerAlone(output: Record<string, unknown>) {
  const result = {
    content: [{ type: "text" as const, text: JSON.stringify(output) }],
    structuredContent: output,
  };
  const known = (name: string) => name === "websites_list";
  const run = async () => result;
  const classify = eraClassifier();
  const info = { name: "sitewright", version: "0" };
  const limit = { maxBytes: 1024 * 1024, timeoutMs: 30_000 };
  return async (request: Request) => {
    const body = JSON.parse(await readBodyText(request, limit)) as unknown;
    checkJsonShape(body);
    const call = toolsCallOf(body);
    const headers = mcpHeadersOf(request);
    const answer =
      classify(request.method, headers, body, call) === "legacy"
        ? fastToolsCall(request, headers, call, known, run, "req_bench")
        : fastModernToolsCall(request, headers, call, info, known, run, "req_bench");
    if (!answer) throw new Error("the bench request missed the fast path");
    return answer;
  };
}

/** The SDK's documented pattern (fresh McpServer registering every tool) answering a fixed result. */
function sdkPatternLayerAlone(fx: Fixture, output: Record<string, unknown>) {
  const tools = mcpTools(fx.platform.registry.tools).map(({ tool }) => tool);
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: "sitewright", version: "0" }, { capabilities: { tools: {} } });
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
          async () => ({
            content: [{ type: "text" as const, text: JSON.stringify(output) }],
            structuredContent: output,
          }),
        );
      }
      return server;
    },
    { legacy: "stateless" },
  );
  return (request: Request) => handler.fetch(request);
}
