import { afterAll, describe, expect, it } from "vitest";
import { discoverRoutes } from "../../../src/framework/routes.ts";
import { closeSandboxPool } from "../../../src/framework/sandbox/pool.ts";
import { build, buildErrors, fakeCms, page, simplePage } from "./helpers.ts";

afterAll(closeSandboxPool);

describe("routes", () => {
  it("maps files of pages/ to routes and output paths", async () => {
    const result = await build({
      "pages/index.tsx": simplePage("Home"),
      "pages/about.tsx": simplePage("About"),
      "pages/docs/index.tsx": simplePage("Docs"),
      "pages/docs/getting-started.tsx": simplePage("Start"),
      "pages/_partials/Box.tsx": "export default function Box() { return <div />; }",
      "pages/helpers.ts": "export const x = 1;",
    });
    expect(result.pages.map((p) => [p.route, p.path, p.source]).sort()).toEqual([
      ["/", "index.html", "pages/index.tsx"],
      ["/about/", "about/index.html", "pages/about.tsx"],
      ["/docs/", "docs/index.html", "pages/docs/index.tsx"],
      ["/docs/getting-started/", "docs/getting-started/index.html", "pages/docs/getting-started.tsx"],
    ]);
    expect(page(result, "/docs/getting-started/")).toContain("<h1>Start</h1>");
  });

  it("refuses two files for one route, catch-all and malformed segments, reserved folders", () => {
    const { errors } = discoverRoutes([
      "pages/about.tsx",
      "pages/about/index.md",
      "pages/[...all].tsx",
      "pages/post-[id].tsx",
      "pages/my page.tsx",
      "pages/_assets/x.tsx",
      "pages/_service.tsx",
    ]);
    const messages = errors.map((e) => `${e.file}: ${e.message}`).join("\n");
    expect(messages).toContain("pages/about/index.md: pages/about.tsx already renders the route /about/");
    expect(messages).toContain("catch-all segments like [...all] are not supported");
    expect(messages).toContain("'post-[id]': a dynamic segment is a whole file or folder name");
    expect(messages).toContain("'my page' cannot be part of a URL");
    // Files starting with _ are private, not routes, so they cannot collide with reserved paths.
    expect(messages).not.toContain("_assets");
  });

  it("renders React-style code through preact/compat", async () => {
    const result = await build({
      "pages/index.tsx": `import React, { useState, useEffect, useMemo, Fragment } from "react";
import { createPortal } from "react-dom";
function Counter({ start }: { start: number }) {
  const [count, setCount] = useState(start);
  useEffect(() => setCount(99), []);
  const double = useMemo(() => count * 2, [count]);
  return <button className="counter" onClick={() => setCount(count + 1)}>{count}/{double}</button>;
}
class Old extends React.Component<{ name: string }> {
  render() { return <em>{this.props.name}</em>; }
}
export default function Home() {
  return (
    <Fragment>
      <label htmlFor="q" style={{ marginTop: 4 }}>Q</label>
      <Counter start={2} />
      <Old name="classic" />
      {React.createElement("p", { className: "made" }, "created")}
      {typeof createPortal}
    </Fragment>
  );
}
`,
    });
    const html = page(result, "/");
    expect(html).toContain('<label for="q" style="margin-top:4px;">Q</label>');
    expect(html).toContain('<button class="counter">2/4</button>');
    expect(html).toContain("<em>classic</em>");
    expect(html).toContain('<p class="made">created</p>');
    expect(html).toContain("function");
  });

  it("renders Markdown pages with front matter, a layout and escaped HTML", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "pages/notes/first.md": `---
title: "First: a note"
description: It's about notes
layout: layouts/Base
tags: [a, b]
draft: false
---
# Heading

Some *text* with <script>alert(1)</script> and a [bad link](javascript:alert(1)) and a [good one](/about/).

| a | b |
|---|---|
| 1 | 2 |
`,
      "pages/plain.md": "# Plain title\n\nNo front matter.\n",
      "layouts/Base.tsx": `export default function Base({ title, description, frontmatter, route, children }) {
  return <div class="base" data-route={route} data-tags={frontmatter.tags.join("+")}><h1>{title}</h1><p>{description}</p>{children}</div>;
}
`,
    });
    const note = page(result, "/notes/first/");
    expect(note).toContain("<title>First: a note</title>");
    expect(note).toContain(`<meta name="description" content="It&#39;s about notes">`);
    expect(note).toContain(
      '<div class="base" data-route="/notes/first/" data-tags="a+b"><h1>First: a note</h1>',
    );
    expect(note).toContain("<em>text</em>");
    expect(note).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(note).not.toContain("<script>");
    expect(note).not.toContain("javascript:");
    expect(note).toContain('<a href="/about/">good one</a>');
    expect(note).toContain("<table>");
    const plain = page(result, "/plain/");
    expect(plain).toContain("<title>Plain title</title>");
    expect(plain).toContain('<div class="markdown"><h1>Plain title</h1>');
  });

  it("reports front matter errors and missing layouts at their line", async () => {
    const errors = await buildErrors({
      "pages/a.md": "---\ntitle: A\nthis is not a key\nlayout: layouts/Nope\n---\nText\n",
      "pages/b.md": "---\ntitle: B\n",
    });
    expect(errors).toEqual([
      { file: "pages/a.md", line: 3, column: 1, message: "front matter lines are 'key: value'." },
      {
        file: "pages/a.md",
        line: 4,
        column: 1,
        message:
          "layout 'layouts/Nope' was not found: name a component file of the website, like layouts/Layout.tsx.",
      },
      {
        file: "pages/b.md",
        line: 1,
        column: 1,
        message: "front matter starts with --- but has no closing --- line.",
      },
    ]);
  });

  it("expands a dynamic route through paths(), with props and a head function", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "pages/docs/[topic].tsx": `export async function paths() {
  return [
    { params: { topic: "install" }, props: { text: "How to install" } },
    { params: { topic: "usage" }, props: { text: "How to use" } },
  ];
}
export function head({ params, props }) {
  return { title: props.text, description: "Topic " + params.topic };
}
export default function Topic({ params, props, route }) {
  return <article data-route={route}><h1>{props.text}</h1><p>{params.topic}</p></article>;
}
`,
    });
    expect(result.pages.map((p) => p.route).sort()).toEqual(["/", "/docs/install/", "/docs/usage/"]);
    const usage = page(result, "/docs/usage/");
    expect(usage).toContain("<title>How to use</title>");
    expect(usage).toContain('<meta name="description" content="Topic usage">');
    expect(usage).toContain('<article data-route="/docs/usage/"><h1>How to use</h1><p>usage</p></article>');
  });

  it("expands nested parameters", async () => {
    const result = await build({
      "pages/[lang]/[slug].tsx": `export const paths = () => [{ params: { lang: "en", slug: "a" } }, { params: { lang: "fr", slug: "b" } }];
export default function P({ params }) { return <h1>{params.lang}-{params.slug}</h1>; }
`,
    });
    expect(result.pages.map((p) => p.path).sort()).toEqual(["en/a/index.html", "fr/b/index.html"]);
  });

  it("renders one page per CMS item of a collection route, published or draft by mode", async () => {
    const files = {
      "pages/index.tsx": `import { cms } from "sitewright:cms";
export default function Home() {
  const latest = cms.query("posts", { sort: "-date", limit: 2 });
  const featured = cms.query("posts", { filter: { featured: true } });
  return <main><h1>Home</h1><ul>{latest.map((p) => <li>{p.slug}</li>)}</ul><p>{featured.map((p) => p.slug).join(",")}</p><p>{cms.get("posts", "b")?.values.title}</p><p>{cms.collections().join(",")}</p></main>;
}
`,
      "pages/posts/[slug].tsx": `export const collection = "posts";
export const head = ({ props }) => ({ title: props.item.values.title });
export default function Post({ props }) { return <h1>{props.item.values.title}</h1>; }
`,
    };
    const published = {
      posts: [
        { slug: "a", values: { title: "Post A", date: "2025-01-01", featured: true } },
        { slug: "b", values: { title: "Post B", date: "2025-03-01" } },
        { slug: "c", values: { title: "Post C", date: "2025-02-01", featured: true } },
      ],
    };
    const drafts = {
      posts: [...published.posts, { slug: "d", values: { title: "Draft D", date: "2025-04-01" } }],
    };
    const cms = fakeCms(published, drafts);
    const live = await build(files, { cms });
    expect(live.pages.map((p) => p.route).sort()).toEqual(["/", "/posts/a/", "/posts/b/", "/posts/c/"]);
    expect(page(live, "/")).toContain("<ul><li>b</li><li>c</li></ul><p>a,c</p><p>Post B</p><p>posts</p>");
    expect(page(live, "/posts/c/")).toContain("<title>Post C</title>");
    const preview = await build(files, { cms, mode: "preview" });
    expect(preview.pages.map((p) => p.route)).toContain("/posts/d/");
    expect(page(preview, "/posts/d/")).toContain('<meta name="robots" content="noindex">');
    expect(preview.sourceHash).not.toBe(live.sourceHash);
  });

  it("renders nothing for an empty or missing collection", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "pages/posts/[slug].tsx": `export const collection = "posts";\nexport default function P() { return <p />; }\n`,
    });
    expect(result.pages.map((p) => p.route)).toEqual(["/"]);
  });

  it("reports a dynamic route without paths() or collection, and bad params", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "pages/a/[id].tsx": "export default function P() { return <p />; }\n",
      "pages/b/[id].tsx": `export function paths() {\n  return [{ params: { id: "../etc" } }];\n}\nexport default function P() { return <p />; }\n`,
    });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ file: "pages/a/[id].tsx" });
    expect(errors[0]!.message).toContain("this is a dynamic route: export function paths()");
    expect(errors[1]).toMatchObject({ file: "pages/b/[id].tsx", line: 1, column: 1 });
    expect(errors[1]!.message).toContain('params.id is "../etc"');
  });

  it("renders pages/404.tsx to 404.html", async () => {
    const result = await build({ "pages/index.tsx": simplePage(), "pages/404.tsx": simplePage("Not here") });
    const notFound = result.pages.find((p) => p.path === "404.html");
    expect(notFound?.route).toBe("/404.html");
    expect(notFound?.html).toContain("<title>Not here</title>");
  });

  it("titles a page by its first heading when it sets no head, and warns when it has neither", async () => {
    const result = await build({
      "pages/index.tsx": "export default function P() { return <h1>From <em>the</em> heading</h1>; }\n",
      "pages/bare.tsx": "export default function P() { return <p>no title</p>; }\n",
    });
    expect(page(result, "/")).toContain("<title>From the heading</title>");
    expect(result.warnings).toEqual([
      {
        file: "pages/bare.tsx",
        line: 0,
        column: 0,
        message: '/bare/ has no title: export const head = { title: "…" } (or render an <h1>).',
      },
    ]);
  });

  it("passes console output back as warnings", async () => {
    const result = await build({
      "pages/index.tsx": `export default function P() { console.log("rendering", { a: 1 }); console.error(new Error("boom")); return <h1>x</h1>; }\n`,
    });
    expect(result.warnings.map((w) => w.message)).toEqual([
      'console.log: rendering {"a":1}',
      "console.error: Error: boom",
    ]);
  });

  it("needs at least one page", async () => {
    const errors = await buildErrors({ "styles/a.css": "body { color: red }" });
    expect(errors[0]!.message).toContain("the website has no pages");
  });
});
