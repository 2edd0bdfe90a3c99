import { afterAll, describe, expect, it } from "vitest";
import { contentTypeOf } from "../../../src/framework/public-files.ts";
import { closeSandboxPool } from "../../../src/framework/sandbox/pool.ts";
import { assetText, build, buildErrors, page, simplePage } from "./helpers.ts";

afterAll(closeSandboxPool);

const stylesheetOf = (result: Awaited<ReturnType<typeof build>>) =>
  result.assets.find((a) => a.path.startsWith("_assets/"))!;

describe("styles", () => {
  it("bundles every styles/**.css in path order into one hashed stylesheet linked from every page", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "pages/about.md": "# About\n",
      "styles/b.css": ".b { color: blue; }\n",
      "styles/a.css": ":root { --x: 1px; }\n.a { margin: var(--x); }\n",
      "styles/base/reset.css": "* { margin: 0 }\n",
    });
    const css = stylesheetOf(result);
    expect(css.path).toMatch(/^_assets\/styles-[0-9a-f]{12}\.css$/);
    expect(css.path).toContain(css.sha256.slice(0, 12));
    expect(css.contentType).toBe("text/css; charset=utf-8");
    const text = assetText(result, css.path);
    // Path order: styles/a.css, styles/b.css, styles/base/reset.css.
    expect(text.indexOf(".a{")).toBeLessThan(text.indexOf(".b{"));
    expect(text.indexOf(".b{")).toBeLessThan(text.indexOf("*{"));
    for (const p of result.pages) expect(p.html).toContain(`<link rel="stylesheet" href="/${css.path}">`);
  });

  it("changes the stylesheet's name when its content changes, and only then", async () => {
    const one = await build({ "pages/index.tsx": simplePage(), "styles/a.css": ".a { color: red }" });
    const same = await build({ "pages/index.tsx": simplePage("Other"), "styles/a.css": ".a { color: red }" });
    const two = await build({ "pages/index.tsx": simplePage(), "styles/a.css": ".a { color: green }" });
    expect(stylesheetOf(same).path).toBe(stylesheetOf(one).path);
    expect(stylesheetOf(two).path).not.toBe(stylesheetOf(one).path);
  });

  it("uses styles/index.css as the only entry when present, inlining its imports", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "styles/index.css":
        '@import "./theme.css";\n@import url("https://fonts.example/css?family=Inter");\nbody { background: url(/images/bg.svg); }\n',
      "styles/theme.css": ".theme { color: red }\n",
      "styles/unused.css": ".unused { color: red }\n",
    });
    const text = assetText(result, stylesheetOf(result).path);
    expect(text).toContain(".theme{color:red}");
    expect(text).toContain('@import"https://fonts.example/css?family=Inter"');
    expect(text).toContain("url(/images/bg.svg)");
    expect(text).not.toContain("unused");
  });

  it("appends CSS imported by components", async () => {
    const result = await build({
      "pages/index.tsx": 'import "../components/card.css";\n' + simplePage(),
      "components/card.css": ".card { padding: 1rem }\n",
      "styles/site.css": "body { margin: 0 }\n",
    });
    const text = assetText(result, stylesheetOf(result).path);
    expect(text).toContain("body{margin:0}");
    expect(text).toContain(".card {");
  });

  it("refuses relative url() references, which would not resolve once served", async () => {
    const errors = await buildErrors({
      "pages/index.tsx": simplePage(),
      "styles/a.css": "\n.hero { background: url(../public/bg.svg) }\n",
      "public/bg.svg": "<svg/>",
    });
    expect(errors[0]).toMatchObject({ file: "styles/a.css", line: 2 });
    expect(errors[0]!.message).toContain(
      "refer to files of public/ by their absolute URL, like url(/images/hero.svg)",
    );
  });

  it("has no stylesheet (and no link) without CSS", async () => {
    const result = await build({ "pages/index.tsx": simplePage() });
    expect(result.assets).toEqual([]);
    expect(page(result, "/")).not.toContain("stylesheet");
  });
});

describe("public files", () => {
  it("serves public/** at the same path with the right content type", async () => {
    const result = await build({
      "pages/index.tsx": simplePage(),
      "public/robots.txt": "User-agent: *\n",
      "public/data/feed.xml": "<rss/>",
      "public/site.webmanifest": "{}",
      "public/js/app.js": "console.log(1)",
      "public/notes/readme.md": "# hi",
      "public/.well-known/security.txt": "Contact: x",
    });
    const types = Object.fromEntries(result.assets.map((a) => [a.path, a.contentType]));
    expect(types).toEqual({
      "robots.txt": "text/plain; charset=utf-8",
      "data/feed.xml": "application/xml; charset=utf-8",
      "site.webmanifest": "application/manifest+json; charset=utf-8",
      "js/app.js": "text/javascript; charset=utf-8",
      "notes/readme.md": "text/markdown; charset=utf-8",
      ".well-known/security.txt": "text/plain; charset=utf-8",
    });
    expect(assetText(result, "robots.txt")).toBe("User-agent: *\n");
    const robots = result.assets.find((a) => a.path === "robots.txt")!;
    expect(robots.sha256).toBe("fd89345af6aca5dab85f2aa6a830e270a362b1fa6b5f19607ddd773a081ed651");
  });

  it("knows common content types", () => {
    expect(contentTypeOf("a/b.html")).toBe("text/html; charset=utf-8");
    expect(contentTypeOf("x.PNG")).toBe("image/png");
    expect(contentTypeOf("font.woff2")).toBe("font/woff2");
    expect(contentTypeOf("favicon.ico")).toBe("image/x-icon");
    expect(contentTypeOf("blob.bin")).toBe("application/octet-stream");
  });

  it("links public/favicon.svg from every page", async () => {
    const result = await build({ "pages/index.tsx": simplePage(), "public/favicon.svg": "<svg/>" });
    expect(page(result, "/")).toContain('<link rel="icon" href="/favicon.svg">');
  });
});
