import { afterAll, describe, expect, it } from "vitest";
import { closeSandboxPool } from "../../../src/framework/sandbox/pool.ts";
import { starterFiles as starterOf } from "../../../src/framework/starter/index.ts";
import { assetText, build, fakeCms, page } from "./helpers.ts";

const starterFiles = () => starterOf("Northwind Studio");

afterAll(closeSandboxPool);

const post = {
  slug: "hello-world",
  values: {
    title: "Hello, world",
    date: "2025-03-14",
    excerpt: "Our first post.",
    body: "One.\n\nTwo <b>bold</b>.",
  },
};

describe("starter", () => {
  it("builds its pages, stylesheet, public files and contact form without warnings", async () => {
    const result = await build(starterFiles(), { cms: fakeCms({ blog: [] }) });
    expect(result.pages.map((p) => [p.route, p.path]).sort()).toEqual(
      [
        ["/", "index.html"],
        ["/404.html", "404.html"],
        ["/about/", "about/index.html"],
        ["/blog/", "blog/index.html"],
        ["/contact/", "contact/index.html"],
      ].sort(),
    );
    expect(result.warnings).toEqual([]);
    const css = result.assets.find((a) => a.path.endsWith(".css"))!;
    expect(css.path).toMatch(/^_assets\/styles-[0-9a-f]{12}\.css$/);
    expect(css.contentType).toBe("text/css; charset=utf-8");
    expect(assetText(result, css.path)).toContain("prefers-color-scheme:dark");
    expect(assetText(result, "robots.txt")).toContain("User-agent: *");
    expect(result.assets.find((a) => a.path === "favicon.svg")?.contentType).toBe(
      "image/svg+xml; charset=utf-8",
    );
    expect(result.forms).toEqual([
      {
        name: "contact",
        fields: ["name", "email", "message"],
        inputs: [
          { name: "name", type: "text", required: true },
          { name: "email", type: "email", required: true },
          { name: "message", type: "textarea", required: true },
        ],
        page: "/contact/",
      },
    ]);
    expect(result.sourceHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("renders a complete document: head, layout, navigation, hero, features", async () => {
    const result = await build(starterFiles());
    const home = page(result, "/");
    expect(home.startsWith("<!doctype html>")).toBe(true);
    expect(home).toContain("<title>Northwind Studio — Calm, fast websites for small teams.</title>");
    expect(home).toMatch(/<meta name="description" content="A small studio/);
    expect(home).toMatch(/<link rel="stylesheet" href="\/_assets\/styles-[0-9a-f]{12}\.css">/);
    expect(home).toContain('<link rel="icon" href="/favicon.svg">');
    expect(home).toContain('class="site-header"');
    expect(home).toContain('<a href="/" aria-current="page">Home</a>');
    expect(home).toContain("Websites that feel calm and load fast.");
    expect(home).toContain("Fast by default");
    expect(home).toContain('class="site-footer"');
    expect(home).not.toContain("noindex");
  });

  it("renders the Markdown about page inside the layout", async () => {
    const about = page(await build(starterFiles()), "/about/");
    expect(about).toContain("<title>About us</title>");
    expect(about).toContain('<meta name="description" content="Who we are and how we work.">');
    expect(about).toContain('<a href="/about/" aria-current="page">About</a>');
    expect(about).toContain('<div class="markdown"><h1>About us</h1>');
    expect(about).toContain("<strong>fast</strong>");
    expect(about).toContain("<blockquote>");
  });

  it("shows an empty blog without CMS items, and one page per published post with them", async () => {
    const empty = await build(starterFiles());
    expect(page(empty, "/blog/")).toContain("No posts yet.");
    expect(empty.pages.some((p) => p.route.startsWith("/blog/") && p.route !== "/blog/")).toBe(false);

    const full = await build(starterFiles(), { cms: fakeCms({ blog: [post] }) });
    const index = page(full, "/blog/");
    expect(index).toContain('<a href="/blog/hello-world/"><h2>Hello, world</h2></a>');
    expect(index).toContain("March 14, 2025");
    const article = page(full, "/blog/hello-world/");
    expect(full.pages.find((p) => p.route === "/blog/hello-world/")?.path).toBe(
      "blog/hello-world/index.html",
    );
    expect(article).toContain("<title>Hello, world</title>");
    expect(article).toContain('<meta name="description" content="Our first post.">');
    expect(article).toContain("<p>Two &lt;b>bold&lt;/b>.</p>");
  });

  it("renders the 404 page to 404.html", async () => {
    const result = await build(starterFiles());
    expect(page(result, "/404.html")).toContain("This page does not exist.");
  });

  it("is named after the website: a string literal in site.ts, escaped text in README.md and the pages", async () => {
    const name = `Ada's "Café" </title><script>alert(1)</script> \\ $& \`x\` *bold* # {{x}}`;
    const files = starterOf(name);
    expect(files.get("site.ts")).toContain(`  name: ${JSON.stringify(name)},\n`);
    expect(files.get("README.md")!.split("\n")[0]).toBe(
      '# Ada\\\'s \\"Café\\" \\<\\/title\\>\\<script\\>alert\\(1\\)\\<\\/script\\> \\\\ \\$\\& \\`x\\` \\*bold\\* \\# \\{\\{x\\}\\}',
    );
    const result = await build(files);
    expect(result.warnings).toEqual([]);
    const home = page(result, "/");
    expect(home).toContain(
      "<title>Ada&#39;s &quot;Café&quot; &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; \\ $&amp; `x` *bold* # {{x}} — Calm, fast websites for small teams.</title>",
    );
    expect(home).not.toContain("<script>alert(1)</script>");
    expect(home).not.toContain("Northwind");
    // Only the two files that name the website differ between websites.
    const other = starterOf("Other");
    expect([...files.keys()]).toEqual([...other.keys()]);
    expect([...files.keys()].filter((path) => files.get(path) !== other.get(path))).toEqual([
      "README.md",
      "site.ts",
    ]);
    for (const [path, text] of other) expect(text, path).not.toContain("{{websiteName}}");
  });

  it("explains its convention at the top of every source file", () => {
    for (const [path, text] of starterFiles()) {
      if (path.endsWith(".svg") || path.endsWith(".md")) continue;
      expect(text.trimStart().slice(0, 2), path).toMatch(/^(\/\/|\/\*|# )/);
    }
  });
});
