import { describe, expect, it } from "vitest";
import { firstH1, renderDocument } from "../../../src/framework/document.ts";
import { collectForms, guardForms, scanForms } from "../../../src/framework/forms.ts";
import { resolveLimits } from "../../../src/framework/limits.ts";
import { parseFrontMatter, renderMarkdown } from "../../../src/framework/markdown.ts";
import { resolveDraftImport } from "../../../src/framework/resolve.ts";
import { computeSourceHash } from "../../../src/framework/source-hash.ts";
import { draft } from "./helpers.ts";

describe("sourceHash", () => {
  const files = draft({ "pages/index.tsx": "a", "styles/a.css": "b" });
  const cms = { blog: [{ slug: "x", values: { title: "X", n: 1 } }] };

  it("is stable: insertion order and key order do not matter", () => {
    const reordered = new Map([...files].reverse());
    expect(computeSourceHash(files, cms, "publish")).toBe(computeSourceHash(reordered, cms, "publish"));
    expect(computeSourceHash(files, { blog: [{ values: { n: 1, title: "X" }, slug: "x" }] }, "publish")).toBe(
      computeSourceHash(files, cms, "publish"),
    );
  });

  it("changes with content, paths, CMS data and mode", () => {
    const base = computeSourceHash(files, cms, "publish");
    const variants = [
      computeSourceHash(draft({ "pages/index.tsx": "a!", "styles/a.css": "b" }), cms, "publish"),
      computeSourceHash(draft({ "pages/index.tsx": "a", "styles/b.css": "b" }), cms, "publish"),
      computeSourceHash(draft({ "pages/index.tsx": "ab", "styles/a.css": "" }), cms, "publish"),
      computeSourceHash(files, { blog: [] }, "publish"),
      computeSourceHash(files, cms, "preview"),
    ];
    for (const hash of variants) expect(hash).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
  });
});

describe("forms scanner", () => {
  it("finds forms posting to /_service/forms/<name> and their named fields", () => {
    const html = `<form action="/_service/forms/contact" method="POST" class=x>
      <input name="name"><input type=email name='email' required>
      <input type="submit" name="go"><input type="hidden" name="source" value="home">
      <textarea name="message"></textarea><select name="topic"><option>a</option></select>
      <button name="action" value="send">Send</button><input name="name">
    </form>
    <form action="/search"><input name="q"></form>
    <form action="/_service/forms/newsletter"><input name="email"></form>`;
    const contactInputs = [
      { name: "name", type: "text", required: false },
      { name: "email", type: "email", required: true },
      { name: "source", type: "hidden", required: false },
      { name: "message", type: "textarea", required: false },
      { name: "topic", type: "select", required: false },
    ];
    const newsletterInputs = [{ name: "email", type: "text", required: false }];
    expect(scanForms(html)).toEqual([
      {
        name: "contact",
        fields: ["name", "email", "source", "message", "topic"],
        inputs: contactInputs,
        problems: [],
      },
      {
        name: "newsletter",
        fields: ["email"],
        inputs: newsletterInputs,
        problems: ["form 'newsletter' must use method=\"post\" to be received"],
      },
    ]);
    expect(collectForms([{ route: "/", html }]).forms).toEqual([
      {
        name: "contact",
        fields: ["name", "email", "source", "message", "topic"],
        inputs: contactInputs,
        page: "/",
      },
      { name: "newsletter", fields: ["email"], inputs: newsletterInputs, page: "/" },
    ]);
  });

  it("adds a honeypot and a start-time field to the forms it receives, which scanning then ignores", () => {
    const html =
      '<form action="/_service/forms/contact" method="post"><input name="a"></form><form action="/q"></form>';
    const guarded = guardForms(html);
    expect(guarded.match(/name="_sw_website"/g)).toHaveLength(1);
    expect(guarded.match(/name="_sw_token"/g)).toHaveLength(1);
    expect(guarded).toContain('fetch("/_service/forms/_token"');
    expect(guarded.endsWith('<form action="/q"></form>')).toBe(true);
    expect(scanForms(guarded)[0]!.fields).toEqual(["a"]);
  });

  it("refuses bad form names", () => {
    const { forms, problems } = collectForms([
      { route: "/x/", html: '<form method="post" action="/_service/forms/bad name"><input name="a"></form>' },
    ]);
    expect(forms).toEqual([]);
    expect(problems[0]!.message).toContain("must be 1-64 letters, digits");
  });
});

describe("markdown", () => {
  it("parses front matter values", () => {
    const front = parseFrontMatter(
      "a.md",
      '---\ntitle: "Quoted: \\"yes\\""\nn: 3\nok: true\ntags: [x, \'y z\']\nplain: a value # comment\n# a comment line\n---\nbody',
    );
    expect(front.errors).toEqual([]);
    expect(front.data).toEqual({
      title: 'Quoted: "yes"',
      n: 3,
      ok: true,
      tags: ["x", "y z"],
      plain: "a value",
    });
    expect(front.body.split("\n").length).toBe(9);
  });

  it("escapes raw HTML and drops unsafe links", () => {
    const html = renderMarkdown(
      '<img src=x onerror="alert(1)">\n\n[a](JavaScript:alert(1)) ![i](data:text/html,x) [b](https://ok.example/)',
    );
    expect(html).not.toContain("<img");
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('<a href="https://ok.example/">b</a>');
  });
});

describe("document", () => {
  it("escapes head values and takes the title from the first h1", () => {
    const html = renderDocument(
      "<h1>A &amp; <b>B</b></h1>",
      { description: '"quoted" <desc>', lang: "fr" },
      {
        mode: "publish",
      },
    );
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("<title>A &amp; B</title>");
    expect(html).toContain('<meta name="description" content="&quot;quoted&quot; &lt;desc&gt;">');
    expect(firstH1("<p>none</p>")).toBeUndefined();
  });
});

describe("limits and resolution", () => {
  it("fills defaults and clamps values", () => {
    expect(resolveLimits()).toMatchObject({ timeLimitMs: 10_000, memoryLimitBytes: 64 * 1024 * 1024 });
    expect(resolveLimits({ timeLimitMs: 1, memoryLimitBytes: 1e12 })).toMatchObject({
      timeLimitMs: 50,
      memoryLimitBytes: 1024 * 1024 * 1024,
    });
  });

  it("resolves imports inside the draft only", () => {
    const files = draft({ "a/b.tsx": "", "a/c/index.ts": "", "d.json": "" });
    expect(resolveDraftImport(files, "a/x.tsx", "./b")).toBe("a/b.tsx");
    expect(resolveDraftImport(files, "a/x.tsx", "./c")).toBe("a/c/index.ts");
    expect(resolveDraftImport(files, "a/x.tsx", "../d.json")).toBe("d.json");
    expect(resolveDraftImport(files, "a/x.tsx", "/a/b")).toBe("a/b.tsx");
    expect(resolveDraftImport(files, "a/x.tsx", "../../etc/passwd")).toBeUndefined();
  });
});
