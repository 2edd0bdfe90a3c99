import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "srvx/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/kernel/ids.ts";
import { createMcpEndpoint } from "../../src/mcp/endpoint.ts";
import { fastModernToolsCall, mcpHeadersOf, toolsCallOf } from "../../src/mcp/fast-call.ts";
import { version } from "../../src/version.ts";
import { useTestPlatform } from "../support/platform.ts";

/**
 * The fast `tools/call` path must answer exactly as the SDK's stateless transport does, in-process and on node:http
 * (where the body and headers are read from the IncomingMessage).
 */
describe("MCP fast tools/call path", () => {
  const t = useTestPlatform("sqlite");
  /** The endpoint on node:http, with the fast path and without it. */
  const served = new Map<boolean, { url: string; server: Server }>();
  beforeAll(async () => {
    await t.createWebsite("fast path site");
    for (const fastPath of [true, false]) {
      const endpoint = createMcpEndpoint(t.platform, version, { fastPath });
      const handler = toNodeHandler((request) => endpoint(request, "127.0.0.1", "req_fast"));
      const server = createServer(handler as (req: IncomingMessage, res: ServerResponse) => void);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      served.set(fastPath, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server });
    }
  });
  afterAll(async () => {
    for (const { server } of served.values()) await new Promise((resolve) => server.close(resolve));
  });

  let via: "in-process" | "node:http" = "in-process";
  const send = async (
    fastPath: boolean,
    body: unknown,
    headers: Record<string, string> = {},
    key?: string,
  ) => {
    const init = {
      method: "POST",
      body: JSON.stringify(body),
      headers: {
        authorization: `Bearer ${key ?? t.adminKey.plaintextKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...headers,
      },
    };
    const response =
      via === "node:http"
        ? await fetch(`${served.get(fastPath)!.url}/v1/mcp`, init)
        : await createMcpEndpoint(t.platform, version, { fastPath })(
            new Request("http://localhost/v1/mcp", init),
            "127.0.0.1",
            "req_fast",
          );
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      requestId: response.headers.get("x-request-id"),
      body: JSON.parse(text),
    };
  };
  const call = (name: string, args?: unknown, id: unknown = 1) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, ...(args === undefined ? {} : { arguments: args }) },
  });

  /** For every case, in-process and on node:http: the fast path answers exactly as the SDK does. */
  const answersAsTheSdk = (list: [string, unknown, Record<string, string>?][]) => {
    for (const transport of ["in-process", "node:http"] as const) {
      for (const [name, body, headers] of list) {
        it(`answers ${name} exactly as the SDK does (${transport})`, async () => {
          via = transport;
          const fast = await send(true, body, headers);
          const sdk = await send(false, body, headers);
          expect(fast).toEqual(sdk);
          expect(fast.requestId).toBe("req_fast");
          // The fast path writes its JSON by hand: the same members in the same order as the SDK's.
          expect(JSON.stringify(fast.body)).toBe(JSON.stringify(sdk.body));
        });
      }
    }
  };

  const cases: [string, unknown, Record<string, string>?][] = [
    ["a successful call", call("websites_list", { limit: 5 })],
    ["a call without arguments", call("organizations_list")],
    ["a string id", call("organizations_list", {}, "abc")],
    [
      "a string id beyond ASCII (its answer's bytes counted, not its characters)",
      call("websites_list", {}, "idé✓"),
    ],
    ["a validation error", call("websites_list", { limit: 0 })],
    ["an unknown tool", call("nope", {})],
    ["a not-found id", call("websites_get", { websiteId: "aaaaaaaaaaaaaaaaaaaaa" })],
    [
      "an Accept without event-stream (declined, SDK answers)",
      call("websites_list", {}),
      { accept: "application/json" },
    ],
    [
      "an unknown protocol version (declined)",
      call("websites_list", {}),
      { "mcp-protocol-version": "1999-01-01" },
    ],
    [
      "arguments that are not an object (declined)",
      { ...call("websites_list"), params: { name: "websites_list", arguments: [1] } },
    ],
  ];
  answersAsTheSdk(cases);

  it("answers a forbidden call exactly as the SDK does", async () => {
    via = "in-process";
    const content = await t.createKey({ kind: "organization", role: "content_editor" });
    const body = call("websites_create", { name: "x" });
    const fast = await send(true, body, {}, content.plaintextKey);
    expect(fast).toEqual(await send(false, body, {}, content.plaintextKey));
    expect(JSON.parse(fast.body.result.content[0].text).kind).toBe("forbidden");
  });

  it("answers a repeated call with the same text, and with the new text once the data changed", async () => {
    via = "in-process";
    const body = call("websites_list", { limit: 100 });
    const textOf = (answer: Awaited<ReturnType<typeof send>>) => answer.body.result.content[0].text as string;
    const first = await send(true, body);
    expect(textOf(await send(true, body))).toBe(textOf(first));
    const name = `quoted ${newId().slice(-8)}`;
    await t.createWebsite(name);
    const after = await send(true, body);
    expect(textOf(after)).not.toBe(textOf(first));
    expect(JSON.parse(textOf(after))).toEqual(after.body.result.structuredContent);
    expect(after.body.result.structuredContent.items.map((w: { name: string }) => w.name)).toContain(name);
  });

  describe("the 2026-07-28 envelope", () => {
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "fast-path-tests", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const modern = (name: string, args?: unknown, id: unknown = 1, meta: unknown = envelope) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: meta },
    });
    const headersFor = (name: string) => ({
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    });
    const modernCases: [string, unknown, Record<string, string>][] = [
      ["a successful call", modern("websites_list", { limit: 5 }), headersFor("websites_list")],
      ["a call without arguments", modern("organizations_list"), headersFor("organizations_list")],
      ["a string id", modern("organizations_list", {}, "abc"), headersFor("organizations_list")],
      ["a validation error", modern("websites_list", { limit: 0 }), headersFor("websites_list")],
      ["an unknown tool", modern("nope", {}), headersFor("nope")],
      [
        "a not-found id",
        modern("websites_get", { websiteId: "aaaaaaaaaaaaaaaaaaaaa" }),
        headersFor("websites_get"),
      ],
      [
        "an Mcp-Name that disagrees with the body (declined, SDK answers)",
        modern("websites_list", {}),
        headersFor("organizations_list"),
      ],
      [
        "a missing Mcp-Method (declined)",
        modern("websites_list", {}),
        { "mcp-protocol-version": "2026-07-28", "mcp-name": "websites_list" },
      ],
      [
        "Mcp-Param headers (the SDK checks them only for an McpServer's declared ones: ignored)",
        modern("websites_list", { limit: 5 }),
        { ...headersFor("websites_list"), "Mcp-Param-Region": "eu", "Mcp-Param-Limit": "7" },
      ],
      [
        "an Mcp-Session-Id header (the modern era has no sessions)",
        modern("websites_list", { limit: 2 }),
        { ...headersFor("websites_list"), "Mcp-Session-Id": "s-1" },
      ],
      [
        "an unknown envelope key (declined)",
        modern("websites_list", {}, 1, { ...envelope, "io.modelcontextprotocol/other": 1 }),
        headersFor("websites_list"),
      ],
      [
        "an envelope whose clientInfo is not an object (declined, the SDK refuses it)",
        modern("websites_list", {}, 1, { ...envelope, "io.modelcontextprotocol/clientInfo": "me" }),
        headersFor("websites_list"),
      ],
      [
        "an envelope whose clientCapabilities is a list (declined, the SDK refuses it)",
        modern("websites_list", {}, 1, { ...envelope, "io.modelcontextprotocol/clientCapabilities": [] }),
        headersFor("websites_list"),
      ],
    ];
    answersAsTheSdk(modernCases);

    it("answers from the fast path (no SDK server is built) for a well-formed call", async () => {
      via = "in-process";
      const body = modern("websites_list", { limit: 1 });
      const request = (headers: Record<string, string>) =>
        new Request("http://localhost/v1/mcp", {
          method: "POST",
          headers: { accept: "application/json, text/event-stream", ...headers },
        });
      const stub = async () => ({ content: [], structuredContent: {} });
      const info = { name: "sitewright", version };
      const known = (name: string) => name === "websites_list";
      const fastFor = (headers: Record<string, string>, call = body) => {
        const r = request(headers);
        return fastModernToolsCall(r, mcpHeadersOf(r), toolsCallOf(call), info, known, stub, "req_test");
      };
      expect(fastFor(headersFor("websites_list"))).toBeInstanceOf(Promise);
      // Mcp-Param-* and Mcp-Session-Id headers change nothing in the SDK's answer (compared above): fast path.
      expect(fastFor({ ...headersFor("websites_list"), "Mcp-Param-Region": "eu" })).toBeInstanceOf(Promise);
      expect(fastFor({ ...headersFor("websites_list"), "Mcp-Session-Id": "s-1" })).toBeInstanceOf(Promise);
      expect(fastFor(headersFor("nope"))).toBeUndefined();
      expect(fastFor(headersFor("nope"), modern("nope", {}))).toBeUndefined();
      const fast = await send(true, body, headersFor("websites_list"));
      expect(fast.status).toBe(200);
      expect(fast.body.result).toMatchObject({
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "sitewright", version } },
      });
      expect(JSON.stringify(fast.body)).toBe(
        JSON.stringify((await send(false, body, headersFor("websites_list"))).body),
      );
    });
  });
});
