import { expect, it } from "vitest";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, protocolModes, resultJson } from "../support/mcp.ts";

for (const protocol of protocolModes) {
  describeMatrix(`MCP discovery mode (${protocol.name})`, (ctx) => {
    const discover = (key = ctx.t.adminKey.plaintextKey) =>
      connectMcp(ctx, key, protocol.negotiation, { query: "tools=discover" });

    it("lists three meta-tools that find, describe and call every tool the key may call", async () => {
      const client = await discover();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["tools_search", "tools_describe", "tools_call"]);

      const found = resultJson(
        await client.callTool({ name: "tools_search", arguments: { query: "publish a website" } }),
      );
      expect(found.items.slice(0, 3).map((item: { name: string }) => item.name)).toContain(
        "website_source_code_head_publish",
      );
      // outside the default toolsets too: discovery reaches every toolset
      const keys = resultJson(
        await client.callTool({ name: "tools_search", arguments: { query: "create an API key" } }),
      );
      expect(keys.items[0].name).toBe("api_keys_create");

      const described = resultJson(
        await client.callTool({ name: "tools_describe", arguments: { name: "websites_create" } }),
      );
      expect(described.name).toBe("websites_create");
      expect(described.inputSchema.properties.name).toBeTruthy();

      const created = await client.callTool({
        name: "tools_call",
        arguments: { name: "websites_create", arguments: { name: "Discovered" } },
      });
      expect(created.isError).toBeFalsy();
      expect(resultJson(created).name).toBe("Discovered");
      const invalid = resultJson(
        await client.callTool({
          name: "tools_call",
          arguments: { name: "websites_create", arguments: { name: 5 } },
        }),
      );
      expect(invalid.kind).toBe("validation");
      expect(invalid.message).toContain("name");
      await client.close();
    });

    it("keeps scope and role checks: out-of-reach tools and websites are not found", async () => {
      const other = await ctx.t.createOrganization(`Other ${protocol.name} ${ctx.mode}`);
      const foreign = await ctx.t.call(
        "websites.create",
        { name: "Foreign", organizationId: other.organization.id },
        other.principal,
      );
      const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
      const client = await discover(content.plaintextKey);
      const found = resultJson(
        await client.callTool({ name: "tools_search", arguments: { query: "create an API key" } }),
      );
      expect(found.items.map((item: { name: string }) => item.name)).not.toContain("api_keys_create");
      for (const tool of ["tools_describe", "tools_call"]) {
        const refused = resultJson(
          await client.callTool({ name: tool, arguments: { name: "api_keys_create" } }),
        );
        expect(refused.kind).toBe("not_found");
        expect(refused.suggestion).toContain("tools_search");
      }
      const scoped = resultJson(
        await client.callTool({
          name: "tools_call",
          arguments: { name: "websites_get", arguments: { websiteId: foreign.id } },
        }),
      );
      expect(scoped.kind).toBe("not_found");
      const bad = await client.callTool({ name: "tools_search", arguments: { query: "" } });
      expect(bad.isError).toBe(true);
      expect(resultJson(bad).kind).toBe("validation");
      await client.close();
    });
  });
}
