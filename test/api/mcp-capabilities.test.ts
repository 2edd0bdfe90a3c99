import { ProtocolErrorCode } from "@modelcontextprotocol/client";
import { expect, it } from "vitest";
import { productDocs } from "../../src/docs/index.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, protocolModes } from "../support/mcp.ts";

const TEMPLATE = "sitewright://docs/{page}#{section}";

for (const protocol of protocolModes) {
  describeMatrix(`MCP resources, prompts, completion and logging (${protocol.name})`, (ctx) => {
    const connect = (key = ctx.t.adminKey.plaintextKey) => connectMcp(ctx, key, protocol.negotiation);

    it("declares resources, prompts, completions and logging, without subscriptions", async () => {
      const client = await connect();
      const capabilities = client.getServerCapabilities()!;
      expect(capabilities).toMatchObject({
        tools: {},
        resources: {},
        prompts: {},
        completions: {},
        logging: {},
      });
      expect(capabilities.resources?.subscribe).toBeUndefined();
      await client.close();
    });

    it("lists every documentation page as a Markdown resource and reads one whole", async () => {
      const client = await connect();
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual(
        productDocs()
          .pages.map((page) => `sitewright://docs/${page.name}`)
          .sort(),
      );
      const errors = resources.find((r) => r.uri === "sitewright://docs/errors")!;
      expect(errors).toMatchObject({ name: "errors", title: "Errors", mimeType: "text/markdown" });
      const read = await client.readResource({ uri: "sitewright://docs/errors" });
      expect(read.contents).toEqual([
        {
          uri: "sitewright://docs/errors",
          mimeType: "text/markdown",
          text: productDocs().page("errors")!.text,
        },
      ]);
      await client.close();
    });

    it("reads one section of a page through the template, and refuses unknown pages and sections", async () => {
      const client = await connect();
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([TEMPLATE]);
      const section = await client.readResource({ uri: "sitewright://docs/errors#kinds-and-statuses" });
      const text = (section.contents[0] as { text: string }).text;
      expect(text.startsWith("## Kinds and statuses")).toBe(true);
      expect(text).not.toContain("## Validation messages");
      for (const uri of [
        "sitewright://docs/nope",
        "sitewright://docs/errors#nope",
        "https://example.com/x",
      ]) {
        const refused = await client.readResource({ uri }).catch((e) => e);
        expect(refused.code, uri).toBe(ProtocolErrorCode.InvalidParams);
        expect(refused.data).toEqual({ uri });
      }
      await client.close();
    });

    it("completes the template's page and, given the page, its section anchors", async () => {
      const client = await connect();
      const ref = { type: "ref/resource" as const, uri: TEMPLATE };
      const pages = await client.complete({ ref, argument: { name: "page", value: "er" } });
      expect(pages.completion.values[0]).toBe("errors");
      const sections = await client.complete({
        ref,
        argument: { name: "section", value: "kind" },
        context: { arguments: { page: "errors" } },
      });
      expect(sections.completion.values).toContain("kinds-and-statuses");
      const variable = await client
        .complete({ ref, argument: { name: "chapter", value: "" } })
        .catch((e) => e);
      expect(variable.code).toBe(ProtocolErrorCode.InvalidParams);
      const unknown = await client
        .complete({
          ref: { type: "ref/resource", uri: "sitewright://other/{x}" },
          argument: { name: "x", value: "" },
        })
        .catch((e) => e);
      expect(unknown.code).toBe(ProtocolErrorCode.InvalidParams);
      await client.close();
    });

    it("lists the task prompts a key may use and fills them in, resolving the website by name", async () => {
      const site = await ctx.t.createWebsite(`Prompt Bakery ${protocol.name} ${ctx.mode}`);
      const client = await connect();
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([
        "add_cms_blog",
        "build_and_publish_site",
        "review_before_publishing",
      ]);
      const review = await client.getPrompt({
        name: "review_before_publishing",
        arguments: { website: site.slug },
      });
      expect(review.messages[0]!.role).toBe("user");
      const unresolved = (review.messages[0]!.content as { text: string }).text;
      expect(unresolved).toContain("websites_list");
      const named = await client.getPrompt({
        name: "review_before_publishing",
        arguments: { website: `Prompt Bakery ${protocol.name} ${ctx.mode}` },
      });
      const text = (named.messages[0]!.content as { text: string }).text;
      expect(text).toContain(`websiteId ${site.id}`);
      expect(text).toContain("website_source_code_head_check");
      const missing = await client.getPrompt({ name: "add_cms_blog", arguments: {} }).catch((e) => e);
      expect(missing.code).toBe(ProtocolErrorCode.InvalidParams);
      expect(missing.message).toContain("website");
      const unknown = await client.getPrompt({ name: "no_such_prompt" }).catch((e) => e);
      expect(unknown.code).toBe(ProtocolErrorCode.InvalidParams);
      await client.close();
    });

    it("completes a prompt's website argument with the websites the credential reaches, and only those", async () => {
      const mine = await ctx.t.createWebsite(`Zephyr Garden ${protocol.name} ${ctx.mode}`);
      await ctx.t.createWebsite(`Zephyr Hidden ${protocol.name} ${ctx.mode}`);
      const scoped = await ctx.t.createKey({ kind: "websites", websiteIds: [mine.id], role: "full_editor" });
      const client = await connect(scoped.plaintextKey);
      const ref = { type: "ref/prompt" as const, name: "add_cms_blog" };
      const byName = await client.complete({ ref, argument: { name: "website", value: "zeph" } });
      expect(byName.completion.values).toEqual([`Zephyr Garden ${protocol.name} ${ctx.mode}`]);
      const byId = await client.complete({ ref, argument: { name: "website", value: mine.id.slice(0, 6) } });
      expect(byId.completion.values).toContain(mine.id);
      const free = await client.complete({ ref, argument: { name: "topic", value: "bread" } });
      expect(free.completion.values).toEqual([]);
      await client.close();
    });

    it("hides prompts whose tools the credential may not call", async () => {
      const content = await ctx.t.createKey({ kind: "organization", role: "content_editor" });
      const client = await connect(content.plaintextKey);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).not.toContain("build_and_publish_site");
      const hidden = await client
        .getPrompt({ name: "build_and_publish_site", arguments: { description: "x" } })
        .catch((e) => e);
      expect(hidden.code).toBe(ProtocolErrorCode.InvalidParams);
      await client.close();
    });

    it("refuses resource subscriptions (stateless: no capability)", async () => {
      const client = await connect();
      const subscribe = await client.subscribeResource({ uri: "sitewright://docs/errors" }).catch((e) => e);
      expect(subscribe).toBeInstanceOf(Error);
      await client.close();
    });
  });
}

describeMatrix("MCP logging and methods without a capability", (ctx) => {
  it("acknowledges logging/setLevel and answers ping in the 2025 generation", async () => {
    const client = await connectMcp(ctx, ctx.t.adminKey.plaintextKey, protocolModes[0]!.negotiation);
    expect(await client.setLoggingLevel("warning")).toEqual({});
    expect(await client.ping()).toEqual({});
    await client.close();
  });

  const rpc = (method: string, params: Record<string, unknown>, version: string) =>
    ctx.fetch("/v1/mcp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${ctx.t.adminKey.plaintextKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": version,
        "mcp-method": method,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
    });
  const envelope = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };

  it("answers resources/subscribe with -32601 method not found", async () => {
    const response = await rpc("resources/subscribe", { uri: "sitewright://docs/errors" }, "2025-11-25");
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
  });

  it("answers tasks/list with -32601: the server runs no tasks", async () => {
    const response = await rpc("tasks/list", {}, "2025-11-25");
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it("answers logging/setLevel in the 2026-07-28 envelope with -32601: that generation sets the level per request", async () => {
    const response = await rpc("logging/setLevel", { level: "info", _meta: envelope }, "2026-07-28");
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });
});
