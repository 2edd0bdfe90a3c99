import { expect, it } from "vitest";
import { defaultToolsets, toolsets } from "../../src/kernel/toolsets.ts";
import { tools } from "../../tools/index.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, protocolModes, resultJson } from "../support/mcp.ts";

const toolsetOf = new Map(tools.map((tool) => [tool.mcpName, tool.group.toolset]));
const readOnlyNames = new Set(tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.mcpName));

for (const protocol of protocolModes) {
  describeMatrix(`MCP toolsets and read-only mode (${protocol.name})`, (ctx) => {
    const names = async (options: { query?: string; headers?: Record<string, string> }, key?: string) => {
      const client = await connectMcp(ctx, key ?? ctx.t.adminKey.plaintextKey, protocol.negotiation, options);
      const { tools: listed } = await client.listTools();
      await client.close();
      return listed.map((tool) => tool.name);
    };

    it("lists the default toolsets when none is picked; the credential's other tools stay callable by name", async () => {
      const listed = await names({});
      expect(listed).toEqual(expect.arrayContaining(["websites_create", "website_source_code_head_publish"]));
      expect(new Set(listed.map((name) => toolsetOf.get(name)))).toEqual(new Set(defaultToolsets));
      expect(listed).not.toContain("api_keys_list");
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation);
      const result = await client.callTool({
        name: "api_keys_list",
        arguments: { organizationId: ctx.t.local.organization.id },
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      await client.close();
    });

    it("lists and allows only the picked toolsets, by query or header", async () => {
      const picked = await names({ query: "toolsets=cms,docs" });
      expect(picked.length).toBeGreaterThan(5);
      expect(new Set(picked.map((name) => toolsetOf.get(name)))).toEqual(new Set(["cms", "docs"]));
      expect(await names({ headers: { "X-MCP-Toolsets": "cms, docs" } })).toEqual(picked);
      const all = await names({ query: "toolsets=all" });
      expect(new Set(all.map((name) => toolsetOf.get(name)))).toEqual(
        new Set(
          tools.filter((tool) => tool.mcp && tool.access !== "owner").map((tool) => tool.group.toolset),
        ),
      );

      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation, {
        query: "toolsets=cms",
      });
      const refused = await client.callTool({ name: "websites_create", arguments: { name: "Not here" } });
      expect(refused.isError).toBe(true);
      const body = resultJson(refused);
      expect(body.kind).toBe("forbidden");
      expect(body.message).toContain("'websites'");
      await client.close();
      const { items } = await ctx.t.call("websites.list", {});
      expect(items.some((site) => site.name === "Not here")).toBe(false);
    });

    it("refuses an unknown toolset with the valid values", async () => {
      const inits: { path: string; headers: Record<string, string> }[] = [
        { path: "/v1/mcp?toolsets=cms,nope", headers: {} },
        { path: "/v1/mcp", headers: { "x-mcp-toolsets": "nope" } },
      ];
      for (const init of inits) {
        const response = await ctx.fetch(init.path, {
          method: "POST",
          headers: {
            authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...init.headers,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
        });
        expect(response.status).toBe(400);
        const body = await response.json();
        expect(body.kind).toBe("validation");
        expect(body.message).toContain("nope");
        expect(body.validValues).toEqual([...toolsets, "default", "all"]);
      }
    });

    it("read-only mode lists and allows only read-only tools, whatever the key may do", async () => {
      const listed = await names({ query: "readonly=1&toolsets=all" });
      expect(listed.length).toBeGreaterThan(10);
      for (const name of listed) expect(readOnlyNames.has(name), name).toBe(true);
      expect(listed).toContain("websites_list");
      const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocol.negotiation, {
        query: "readonly=1",
      });
      const refused = await client.callTool({ name: "websites_create", arguments: { name: "Read only" } });
      expect(resultJson(refused).kind).toBe("forbidden");
      expect(resultJson(refused).message).toContain("read-only");
      const read = await client.callTool({ name: "websites_list", arguments: {} });
      expect(read.isError).toBeFalsy();
      await client.close();
      const { items } = await ctx.t.call("websites.list", {});
      expect(items.some((site) => site.name === "Read only")).toBe(false);
    });
  });
}
