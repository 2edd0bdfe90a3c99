// The server-function tools through the official MCP client, on both protocol generations.
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeFunctionPool } from "../../src/framework/functions/pool.ts";
import { newId } from "../../src/kernel/ids.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, protocolModes, resultJson } from "../support/mcp.ts";

const SECRET = "mcp_secret_9f8e7d6c";

afterAll(() => closeFunctionPool());

for (const protocol of protocolModes) {
  describeMatrix(`server function tools over MCP (${protocol.name})`, (ctx) => {
    let websiteId: string;
    beforeAll(async () => {
      websiteId = (await ctx.t.createWebsite(`Fn MCP ${ctx.mode} ${newId().slice(-6)}`)).id;
      const { leaseId } = await ctx.t.call("websiteSourceCode.lease.acquire", { websiteId });
      await ctx.t.call("websiteSourceCode.files.writeMany", {
        websiteId,
        leaseId,
        files: [
          {
            path: "functions/echo.ts",
            content: `export async function http(request, { env, log }) {
  log("token", env.TOKEN);
  return Response.json({ got: await request.json() }, { status: 202, headers: { "x-echo": "1" } });
}`,
          },
          { path: "functions/boom.ts", content: "export function http() {\n  throw new Error('kaput');\n}" },
        ],
      });
      await ctx.t.call("secrets.set", { websiteId, name: "TOKEN", value: SECRET });
    }, 60_000);

    const connect = (key = ctx.t.adminKey.plaintextKey) =>
      connectMcp(ctx, key, protocol.negotiation, { query: "toolsets=forms" });

    it("invokes a draft function and reads its run: structuredContent and the same JSON as text", async () => {
      const client = await connect();
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(["functions_invoke", "functions_runs_list", "functions_runs_get"]),
        );
        const invoked = await client.callTool({
          name: "functions_invoke",
          arguments: {
            websiteId,
            name: "echo",
            body: '{"n":1}',
            headers: { "content-type": "application/json" },
          },
        });
        expect(invoked.isError).toBeFalsy();
        expect(resultJson(invoked)).toEqual(invoked.structuredContent);
        const { response, run } = invoked.structuredContent as { response: any; run: any };
        expect(response).toEqual({
          status: 202,
          headers: expect.objectContaining({ "x-echo": "1", "content-type": "application/json" }),
          body: '{"got":{"n":1}}',
        });
        expect(run).toMatchObject({ functionName: "echo", trigger: "draft", status: 202, error: null });
        expect(run.logs).toEqual(["token [secret TOKEN]"]);
        expect(JSON.stringify(invoked)).not.toContain(SECRET);

        const listed = await client.callTool({
          name: "functions_runs_list",
          arguments: { websiteId, functionName: "echo" },
        });
        expect(listed.isError).toBeFalsy();
        expect((listed.structuredContent as { items: unknown[] }).items[0]).toEqual(run);
        const got = await client.callTool({
          name: "functions_runs_get",
          arguments: { websiteId, runId: run.id },
        });
        expect(got.structuredContent).toEqual(run);
      } finally {
        await client.close();
      }
    });

    it("a failing function is a successful call (response null, the run's error); bad calls are isError", async () => {
      const client = await connect();
      try {
        const boom = await client.callTool({
          name: "functions_invoke",
          arguments: { websiteId, name: "boom" },
        });
        expect(boom.isError).toBeFalsy();
        const { response, run } = boom.structuredContent as { response: unknown; run: any };
        expect(response).toBeNull();
        expect(run.status).toBe(500);
        expect(run.error).toMatchObject({ message: "Error: kaput", file: "functions/boom.ts", line: 2 });

        const missing = await client.callTool({
          name: "functions_invoke",
          arguments: { websiteId, name: "nope" },
        });
        expect(missing.isError).toBe(true);
        expect(missing.structuredContent).toBeUndefined();
        expect(resultJson(missing)).toMatchObject({
          kind: "not_found",
          message: expect.stringContaining("functions/nope.ts"),
          suggestion: expect.stringContaining("website_source_code_files_write"),
        });
        const invalid = await client.callTool({
          name: "functions_invoke",
          arguments: { websiteId, name: "Not.A.Name" },
        });
        expect(invalid.isError).toBe(true);
        expect(resultJson(invalid)).toMatchObject({
          kind: "validation",
          message: expect.stringContaining("name"),
        });
        const unknownRun = await client.callTool({
          name: "functions_runs_get",
          arguments: { websiteId, runId: newId() },
        });
        expect(unknownRun.isError).toBe(true);
        expect(resultJson(unknownRun).kind).toBe("not_found");
      } finally {
        await client.close();
      }
    });

    it("a content_editor reads runs but is not offered, and cannot call, functions_invoke", async () => {
      const content = await ctx.t.createKey({
        kind: "websites",
        websiteIds: [websiteId],
        role: "content_editor",
      });
      const client = await connect(content.plaintextKey);
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain("functions_runs_list");
        expect(names).not.toContain("functions_invoke");
        const denied = await client.callTool({
          name: "functions_invoke",
          arguments: { websiteId, name: "echo" },
        });
        expect(denied.isError).toBe(true);
        expect(resultJson(denied).kind).toBe("forbidden");
      } finally {
        await client.close();
      }
    });
  });
}
