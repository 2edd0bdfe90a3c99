import { expect, it } from "vitest";
import { productDocs } from "../../src/docs/index.ts";
import { describeMatrix } from "../support/matrix.ts";
import { connectMcp, resultJson } from "../support/mcp.ts";

describeMatrix("documentation", (ctx) => {
  it("searches by question over REST and returns sections readable by page and anchor", async () => {
    const found = await ctx.request(
      "GET",
      "/documentation/search?query=how%20do%20I%20publish%20a%20website&limit=3",
    );
    expect(found.status).toBe(200);
    expect(found.body.items).toHaveLength(3);
    expect(found.body.items.map((hit: { page: string }) => hit.page)).toContain("publishing");
    const section = found.body.items.find((hit: { anchor: string | null }) => hit.anchor !== null);
    const read = await ctx.request("GET", `/documentation/pages/${section.page}?section=${section.anchor}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ page: section.page, anchor: section.anchor });
    expect(read.body.markdown).toBe(productDocs().section(section.page, section.anchor)!.text);
    expect(read.body.markdown.split("\n")[0]).toContain(section.title.split(" ")[0]);
  });

  it("reads a whole page with its table of contents, the agents' guide included", async () => {
    const read = await ctx.request("GET", "/documentation/pages/guide-build-and-publish");
    expect(read.status).toBe(200);
    expect(read.body.anchor).toBeNull();
    expect(read.body.pageTitle).toBe("Guide: build and publish a website");
    expect(read.body.markdown).toContain("website_source_code_head_publish");
    expect(read.body.sections.map((s: { anchor: string }) => s.anchor)).toContain("6-roll-back");
  });

  it("answers unknown pages and anchors with not_found and the valid names; bad input with validation", async () => {
    const page = await ctx.request("GET", "/documentation/pages/nowhere");
    expect(page.status).toBe(404);
    expect(page.body).toMatchObject({ kind: "not_found", message: expect.stringMatching(/^page: /) });
    expect(page.body.validValues).toContain("publishing");
    const section = await ctx.request("GET", "/documentation/pages/publishing?section=nope");
    expect(section.status).toBe(404);
    expect(section.body.message).toMatch(/^section: /);
    expect(section.body.validValues).toContain("rollback");
    const empty = await ctx.request("GET", "/documentation/search?query=");
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/query/) });
    const many = await ctx.request("GET", "/documentation/search?query=publish&limit=21");
    expect(many.body).toMatchObject({ kind: "validation", message: expect.stringMatching(/limit/) });
  });

  it("is open to a content editor's website key, over MCP too; not without a credential", async () => {
    const site = await ctx.t.createWebsite("docs reader site");
    const reader = await ctx.t.createKey({ kind: "websites", websiteIds: [site.id], role: "content_editor" });
    const rest = await ctx.request("GET", "/documentation/search?query=rate%20limits", {
      key: reader.plaintextKey,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.items[0].page).toBe("rate-limits");
    expect((await ctx.request("GET", "/documentation/search?query=x", { key: null })).status).toBe(401);
    const client = await connectMcp(ctx, reader.plaintextKey);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["documentation_search", "documentation_read"]));
      const result = await client.callTool({
        name: "documentation_read",
        arguments: { page: "errors", section: "the-error-body" },
      });
      expect(result.isError).toBeFalsy();
      expect(resultJson(result)).toMatchObject({ page: "errors", anchor: "the-error-body" });
    } finally {
      await client.close();
    }
  });
});
