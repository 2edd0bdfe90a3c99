import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { tools as definitions } from "../../tools/index.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, protocolModes, resultJson } from "../support/mcp.ts";

for (const protocol of protocolModes) {
  describeMatrix(`MCP endpoint (${protocol.name})`, (ctx) => {
    it("lists tools with names, titles, schemas and all four annotations", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation, {
        query: "toolsets=all",
      });
      expect(client.getNegotiatedProtocolVersion()).toBe(protocol.name);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
        expect(tool.title).toBeTruthy();
        expect(tool.description!.length).toBeGreaterThan(20);
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.outputSchema?.type).toBe("object");
        const a = tool.annotations!;
        for (const hint of [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint]) {
          expect(typeof hint).toBe("boolean");
        }
      }
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["websites_list", "api_keys_create", "audit_log_list"]));
      expect(names.some((name) => name.startsWith("billing_"))).toBe(false);
      await client.close();
    });

    it("shows each key only the tools it could call", async () => {
      const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
      const site = await ctx.t.createWebsite(`scoped-${protocol.name}-${ctx.mode}`);
      const scoped = await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "full_editor" });
      const names = async (key: string) => {
        const client = await connectMcp(ctx, key, protocol.negotiation, { query: "toolsets=all" });
        const { tools } = await client.listTools();
        await client.close();
        return tools.map((t) => t.name).sort();
      };
      const contentNames = await names(content.plaintextKey);
      // Exactly the MCP tools whose declared least role is content_editor (derived from the definitions, so a
      // new content-editor tool needs no edit here); a few known ones pin the derivation down.
      const declared = definitions
        .filter((tool) => tool.mcp && tool.access === "content_editor")
        .map((tool) => tool.mcpName)
        .sort();
      expect(contentNames).toEqual(declared);
      expect(contentNames).toEqual(
        expect.arrayContaining(["websites_get", "cms_items_list", "cms_items_create", "analytics_aggregate"]),
      );
      for (const beyond of ["websites_create", "api_keys_create", "audit_log_list", "secrets_set"]) {
        expect(contentNames).not.toContain(beyond);
      }
      const scopedNames = await names(scoped.plaintextKey);
      expect(scopedNames).toContain("websites_update");
      expect(scopedNames).not.toContain("websites_create");
      expect(scopedNames).not.toContain("api_keys_list");
    });

    it("returns structuredContent and the same JSON as text", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation);
      const result = await client.callTool({
        name: "websites_create",
        arguments: { name: `MCP site ${protocol.name}` },
      });
      expect(result.isError).toBeFalsy();
      expect(resultJson(result)).toEqual(result.structuredContent);
      const created = result.structuredContent as { id: string; name: string };
      expect(created.name).toBe(`MCP site ${protocol.name}`);
      const got = await client.callTool({ name: "websites_get", arguments: { websiteId: created.id } });
      expect(got.structuredContent).toEqual(created);
      await client.close();
    });

    it("fails with isError and the contract's error body; suggestions name MCP tools", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation);
      const missing = await client.callTool({
        name: "websites_get",
        arguments: { websiteId: "aaaaaaaaaaaaaaaaaaaaa" },
      });
      expect(missing.isError).toBe(true);
      const body = resultJson(missing);
      expect(body.kind).toBe("not_found");
      expect(body.suggestion).toContain("websites_list");
      expect(body.suggestion).not.toContain("websites.list");

      const invalid = await client.callTool({
        name: "api_keys_list",
        arguments: { organizationId: "x", revoked: "all" },
      });
      expect(resultJson(invalid)).toMatchObject({ kind: "validation", validValues: ["exclude", "only"] });
      expect(resultJson(invalid).message).toMatch(/^revoked/);
      expect(resultJson(invalid).issues).toEqual([
        { path: "revoked", message: 'must be one of "exclude", "only"', validValues: ["exclude", "only"] },
      ]);

      await client.close();
    });

    it("answers an unknown tool name with the JSON-RPC invalid-params error, not a tool result", async () => {
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation);
      const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((e) => e);
      expect(unknown).toBeInstanceOf(ProtocolError);
      expect(unknown.code).toBe(ProtocolErrorCode.InvalidParams);
      expect(unknown.message).toContain("no_such_tool");
      const billing = await client.callTool({ name: "billing_state_get", arguments: {} }).catch((e) => e);
      expect(billing.code).toBe(ProtocolErrorCode.InvalidParams);
      await client.close();
    });

    it("refuses a call beyond the key's role with forbidden", async () => {
      const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
      const client = await connectMcp(ctx, content.plaintextKey, protocol.negotiation);
      const result = await client.callTool({ name: "websites_create", arguments: { name: "nope" } });
      expect(resultJson(result).kind).toBe("forbidden");
      await client.close();
    });
  });
}

describeMatrix("MCP HTTP edge", (ctx) => {
  const post = (headers: Record<string, string>) =>
    ctx.fetch("/v1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });

  it("answers 401 with the error body and WWW-Authenticate without a key", async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await response.json()).toMatchObject({ kind: "unauthorized" });
  });

  it("answers 403 to a foreign Origin and accepts the app's own", async () => {
    const auth = { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` };
    const foreign = await post({ ...auth, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ kind: "forbidden" });
    const own = await post({ ...auth, origin: "http://localhost:8787" });
    expect(own.status).toBe(200);
  });

  it("answers GET with 405: the endpoint is stateless and opens no stream", async () => {
    const response = await ctx.fetch("/v1/mcp", {
      headers: { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`, accept: "text/event-stream" },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("gives every answer its own X-Request-Id: fast-path calls of both generations, SDK answers, errors, preflight", async () => {
    const auth = { authorization: `Bearer ${ctx.t.adminKey.plaintextKey}` };
    const toolsCall = (meta?: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "websites_list", arguments: { limit: 1 }, ...(meta ? { _meta: meta } : {}) },
      });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const modern = "2026-07-28";
    const responses = [
      await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: { ...headers, ...auth, "mcp-protocol-version": "2025-11-25" },
        body: toolsCall(),
      }),
      await ctx.fetch("/v1/mcp", {
        method: "POST",
        headers: {
          ...headers,
          ...auth,
          "mcp-protocol-version": modern,
          "mcp-method": "tools/call",
          "mcp-name": "websites_list",
        },
        body: toolsCall({
          "io.modelcontextprotocol/protocolVersion": modern,
          "io.modelcontextprotocol/clientInfo": { name: "test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        }),
      }),
      await post(auth),
      await post({ ...auth, origin: "http://localhost:8787" }),
      await post({}),
      await post({ ...auth, origin: "https://evil.example" }),
      await ctx.fetch("/v1/mcp", { method: "POST", headers: { ...headers, ...auth }, body: "{" }),
      await ctx.fetch("/v1/mcp", { headers: auth }),
      await ctx.fetch("/v1/mcp", { method: "OPTIONS", headers: { origin: "http://localhost:8787" } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 401, 403, 400, 405, 204]);
    const ids = responses.map((r) => r.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
