import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { eraClassifier, mcpHeadersOf, toolsCallOf } from "../../src/mcp/fast-call.ts";

const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "agent", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = (id: unknown, params: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params,
});
const modernHeaders = {
  "mcp-protocol-version": MODERN,
  "mcp-method": "tools/call",
  "mcp-name": "websites_list",
};

/** Bodies and headers in the order they are sent: each is classified after the ones before it were remembered. */
const cases: [string, Record<string, string>, unknown][] = [
  [
    "legacy",
    { "mcp-protocol-version": "2025-11-25" },
    call(1, { name: "websites_list", arguments: { limit: 20 } }),
  ],
  [
    "legacy, another id and arguments",
    { "mcp-protocol-version": "2025-11-25" },
    call("x", { name: "websites_list" }),
  ],
  ["legacy without a version header", {}, call(2, { name: "websites_list", arguments: {} })],
  ["legacy with a modern header", modernHeaders, call(3, { name: "websites_list", arguments: {} })],
  ["modern", modernHeaders, call(4, { name: "websites_list", arguments: { limit: 5 }, _meta: envelope })],
  ["modern, another id", modernHeaders, call(5, { name: "websites_list", _meta: envelope })],
  [
    "modern with a clientInfo that is not an object",
    modernHeaders,
    call(6, { name: "websites_list", _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": "agent" } }),
  ],
  [
    "modern, the envelope's members in another order",
    modernHeaders,
    call(10, { name: "websites_list", _meta: Object.fromEntries(Object.entries(envelope).reverse()) }),
  ],
  [
    "modern with a clientInfo whose name is not a string",
    modernHeaders,
    call(11, {
      name: "websites_list",
      _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: 1, version: "1.0.0" } },
    }),
  ],
  [
    "modern with a clientInfo member more",
    modernHeaders,
    call(12, {
      name: "websites_list",
      _meta: {
        ...envelope,
        "io.modelcontextprotocol/clientInfo": { name: "agent", version: "1.0.0", title: "A" },
      },
    }),
  ],
  [
    "modern with the method header of another method",
    { ...modernHeaders, "mcp-method": "tools/list" },
    call(7, { name: "websites_list", _meta: envelope }),
  ],
  ["modern with _meta null", modernHeaders, call(8, { name: "websites_list", _meta: null })],
  [
    "an id that is not a safe integer",
    modernHeaders,
    call(1e300, { name: "websites_list", _meta: envelope }),
  ],
  ["a batch", {}, [call(9, { name: "websites_list" })]],
];

describe("eraClassifier", () => {
  it("answers what classifyInboundRequest answers, also for calls it remembered", () => {
    const classify = eraClassifier();
    const eras = new Set<string>();
    // Pass 1 meets each case after a different one, pass 2 (remembered) too, pass 3 right after itself (the last call).
    for (let pass = 0; pass < 4; pass++) {
      for (const [name, headers, body] of cases) {
        const request = new Request("http://localhost/v1/mcp", { method: "POST", headers });
        const expected = classifyInboundRequest({
          httpMethod: "POST",
          protocolVersionHeader: headers["mcp-protocol-version"],
          mcpMethodHeader: headers["mcp-method"],
          mcpNameHeader: headers["mcp-name"],
          body,
        }).kind;
        eras.add(expected);
        const times = pass === 2 ? 2 : 1;
        for (let time = 0; time < times; time++) {
          expect(
            classify("POST", mcpHeadersOf(request), body, toolsCallOf(body)),
            `${name} (pass ${pass + 1})`,
          ).toBe(expected);
        }
      }
    }
    expect([...eras].sort()).toEqual(["legacy", "modern", "reject"]);
  });
});
