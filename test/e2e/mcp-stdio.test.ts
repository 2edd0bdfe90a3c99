import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, it } from "vitest";
import { protocolModes, resultJson } from "../support/mcp.ts";
import { useListeningPlatform } from "../support/platform.ts";

const bin = join(import.meta.dirname, "..", "..", "bin", "sitewright.js");

describe("sitewright mcp --stdio (a stdio-only client through the bridge)", () => {
  const served = useListeningPlatform("sqlite");
  const clients: Client[] = [];
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
  });

  const connect = async (apiKey: string, negotiation = protocolModes[0]!.negotiation) => {
    const client = new Client({ name: "stdio-tests", version: "1.0.0" }, { versionNegotiation: negotiation });
    clients.push(client);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--stdio", "--url", `${served.url}/v1/mcp`],
      env: { ...(process.env as Record<string, string>), SITEWRIGHT_API_KEY: apiKey },
      stderr: "inherit",
    });
    await client.connect(transport);
    return client;
  };

  for (const mode of protocolModes) {
    it(`lists the key's tools and calls one (${mode.name})`, async () => {
      const website = await served.t.createWebsite(`Stdio ${mode.name}`);
      const key = await served.t.createKey({
        kind: "websites",
        websiteIds: [website.id],
        role: "content_editor",
      });
      const client = await connect(key.plaintextKey, mode.negotiation);
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toContain("websites_list");
      expect(names).not.toContain("websites_create");
      const listed = await client.callTool({ name: "websites_list", arguments: {} });
      expect(resultJson(listed).items.map((w: { id: string }) => w.id)).toStrictEqual([website.id]);
      const refused = await client.callTool({
        name: "websites_get",
        arguments: { websiteId: "x".repeat(21) },
      });
      expect(refused.isError).toBe(true);
      expect(resultJson(refused).kind).toBe("not_found");
    });
  }

  it("surfaces a refused key as an error instead of hanging", async () => {
    await expect(connect("A".repeat(43))).rejects.toThrow();
  });
});
