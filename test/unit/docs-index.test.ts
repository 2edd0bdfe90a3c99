import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorOf, docsFolder, docsIndexOf, parseDocPage, productDocs } from "../../src/docs/index.ts";
import { prompts } from "../../src/mcp/prompts.ts";
import { tools } from "../../tools/index.ts";

const page = `# Errors

Every failure has one body.
It is JSON.

## The error body

Fields.

### 401, 403 or 404

Which one.

\`\`\`md
# Not a heading
## Nor this
\`\`\`

## The error body

Again.
`;

describe("documentation index", () => {
  it("takes the title, the first paragraph and sections up to the next heading of their level", () => {
    const parsed = parseDocPage("errors", page);
    expect(parsed.title).toBe("Errors");
    expect(parsed.description).toBe("Every failure has one body. It is JSON.");
    expect(parsed.sections.map((s) => [s.anchor, s.level])).toEqual([
      ["the-error-body", 2],
      ["401-403-or-404", 3],
      ["the-error-body-1", 2],
    ]);
    const first = parsed.sections[0]!.text;
    expect(first.startsWith("## The error body")).toBe(true);
    expect(first).toContain("### 401, 403 or 404");
    expect(first).toContain("# Not a heading");
    expect(first).not.toContain("Again.");
    expect(parsed.sections[1]!.text).toContain("## Nor this");
  });

  it("computes anchors as GitHub renders them", () => {
    expect(anchorOf("CMS content: sitewright:cms")).toBe("cms-content-sitewrightcms");
    expect(anchorOf("Changing a field's type")).toBe("changing-a-fields-type");
    expect(anchorOf("Without a configured secret: OAuth 2.1")).toBe("without-a-configured-secret-oauth-21");
  });

  it("finds a page's section by anchor", () => {
    const docs = docsIndexOf([parseDocPage("errors", page)]);
    expect(docs.section("errors", "401-403-or-404")?.title).toBe("401, 403 or 404");
    expect(docs.section("errors", "nope")).toBeUndefined();
    expect(docs.page("nope")).toBeUndefined();
  });

  it("finds docs/ from the sources and from a build's dist/", () => {
    const root = join(import.meta.dirname, "..", "..");
    expect(docsFolder(join(root, "src", "docs"))).toBe(join(root, "docs"));
    expect(docsFolder(join(root, "dist"))).toBe(join(root, "docs"));
    expect(() => docsFolder(tmpdir())).toThrow(/docs/);
  });

  it("loads the shipped docs, and every link between pages names an existing page and section", () => {
    const docs = productDocs();
    expect(docs.page("index")?.title).toBe("Sitewright documentation");
    expect(docs.page("framework")?.sections.some((s) => s.title === "About us")).toBe(false);
    for (const doc of docs.pages) {
      for (const [, file, anchor] of doc.text.matchAll(/\]\(([a-z-]+|README)\.md(?:#([^)]+))?\)/g)) {
        const name = file === "README" ? "index" : file!;
        expect(docs.page(name), `${doc.name} → ${file}`).toBeDefined();
        if (anchor) expect(docs.section(name, anchor), `${doc.name} → ${file}#${anchor}`).toBeDefined();
      }
    }
  });
});

describe("MCP prompts", () => {
  it("name only tools that exist over MCP, and need only operations that exist", () => {
    const names = new Set(tools.filter((t) => t.mcp !== false).map((t) => t.mcpName));
    const ids = new Set<string>(tools.map((t) => t.operationId));
    for (const prompt of prompts) {
      const text = prompt.text({ website: "w", description: "d", name: "n", topic: "t" }, undefined);
      const mentioned = [...text.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]);
      expect(mentioned.length, prompt.name).toBeGreaterThan(2);
      for (const name of mentioned) expect(names.has(name), `${prompt.name}: ${name}`).toBe(true);
      for (const id of prompt.needs) expect(ids.has(id), `${prompt.name}: ${id}`).toBe(true);
      for (const uri of text.matchAll(/sitewright:\/\/docs\/([a-z-]+)(?:#([a-z0-9-]+))?/g)) {
        const docs = productDocs();
        expect(docs.page(uri[1]!), uri[0]).toBeDefined();
        if (uri[2]) expect(docs.section(uri[1]!, uri[2]), uri[0]).toBeDefined();
      }
    }
  });
});
