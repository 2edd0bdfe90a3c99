import { describe, expect, it } from "vitest";
import { compileMarkdown } from "../../../src/framework/markdown-modules.ts";
import {
  closeMarkdownPool,
  MARKDOWN_MAX_WAITING,
  MARKDOWN_TIME_LIMIT_MS,
  renderMarkdownOffThread,
} from "../../../src/framework/markdown-pool.ts";
import {
  checkMarkdownDepth,
  MAX_MARKDOWN_DEPTH,
  MarkdownTooDeep,
  renderSafeMarkdown,
  safeUrl,
} from "../../../src/framework/safe-markdown.ts";
import { atOnceBound, timed } from "../../support/timing.ts";

const nestedList = (levels: number) =>
  Array.from({ length: levels }, (_, i) => `${"  ".repeat(i)}- level ${i + 1}`).join("\n");

describe("safeUrl", () => {
  it("refuses script URLs however they are spelled", () => {
    for (const url of [
      "javascript:alert(1)",
      "&#106;avascript:alert(1)",
      "java&#x09;script:alert(1)",
      "javascript&colon;alert(1)",
      "&#x6A&#x61vascript:alert(1)",
      "&#0000106avascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "&Tab;javascript:alert(1)",
      " \u0001javascript:alert(1)",
      "java\nscript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
    ]) {
      expect(safeUrl(url), url).toBeUndefined();
    }
  });

  it("keeps http, https, mailto, tel, relative and fragment URLs, decoded", () => {
    expect(safeUrl("https://example.com/a?b=1&amp;c=2")).toBe("https://example.com/a?b=1&c=2");
    expect(safeUrl("HTTP://example.com")).toBe("HTTP://example.com");
    expect(safeUrl("mailto:a@example.com")).toBe("mailto:a@example.com");
    expect(safeUrl("tel:+1 555")).toBe("tel:+1 555");
    expect(safeUrl("/about/")).toBe("/about/");
    expect(safeUrl("../up?x=a:b")).toBe("../up?x=a:b");
    expect(safeUrl("#top")).toBe("#top");
  });

  it("writes links with every ampersand escaped, so the browser decodes nothing more", () => {
    const html = renderSafeMarkdown(
      "[a](/x?a=1&amp;b=2) [b](&#106;avascript:alert(1)) ![c](&#106;avascript:1)",
    );
    expect(html).toContain('<a href="/x?a=1&amp;b=2">a</a>');
    expect(html).not.toMatch(/javascript|&#106;|<img/i);
    expect(html).toContain("b");
  });
});

describe("Markdown rendering time", () => {
  it("renders off the main thread and refuses a page that takes longer than the limit, as a build error", async () => {
    // A page that renders at once, with a worker to start: what a build costs on this machine in this run.
    const baseline = await timed(() =>
      compileMarkdown(new Map([["pages/quick.md", "# Quick\n"]]), "org-slow"),
    );
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    const { errors, modules } = await compileMarkdown(
      new Map([
        ["pages/slow.md", `# Slow\n\n${"_a".repeat(60_000)}\n`],
        ["pages/fine.md", "# Fine\n\n[ok](/ok/) and [bad](&#106;avascript:alert(1))\n"],
      ]),
      "org-slow",
    );
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    expect(errors).toEqual([
      expect.objectContaining({
        file: "pages/slow.md",
        message: expect.stringMatching(/took longer than 2 seconds/),
      }),
    ]);
    expect(modules.get("pages/fine.md")).toContain('href=\\"/ok/\\"');
    expect(modules.get("pages/fine.md")).not.toMatch(/javascript|&#106;/);
    expect(elapsed).toBeLessThan(MARKDOWN_TIME_LIMIT_MS + atOnceBound(baseline.ms, 6_000));
    // The main thread kept running while the worker ground through the slow text.
    expect(ticks).toBeGreaterThan(elapsed / 10 / 8);
  });
});

describe("Markdown worker queue", () => {
  it(`keeps at most ${MARKDOWN_MAX_WAITING} texts waiting and refuses more at once with rate_limited`, async () => {
    const texts = Array.from(
      { length: MARKDOWN_MAX_WAITING + 4 },
      (_, i) => `# Text ${i}\n\n${"word ".repeat(100)}`,
    );
    const outcomes = await Promise.allSettled(
      texts.map((text) => renderMarkdownOffThread(text, "org-queue")),
    );
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused).toHaveLength(3);
    for (const o of refused)
      expect((o as PromiseRejectedResult).reason).toMatchObject({ kind: "rate_limited" });
    expect(outcomes[0]).toMatchObject({
      status: "fulfilled",
      value: expect.stringContaining("<h1>Text 0</h1>"),
    });
    expect(outcomes[MARKDOWN_MAX_WAITING]).toMatchObject({ status: "fulfilled" });
  });
});

describe("Markdown worker fairness", () => {
  it("renders another organization's text within one time limit while one organization floods the worker", async () => {
    const slow = `# Slow\n\n${"_a".repeat(60_000)}\n`;
    // Each flooding text runs until the time limit (wall-clock), one after another.
    let cutAtLimit = 0;
    const flood = Array.from({ length: MARKDOWN_MAX_WAITING + 3 }, () =>
      renderMarkdownOffThread(slow, "org-flood").then(
        () => "rendered",
        (error: unknown) => {
          if (!(error as { kind?: string }).kind) cutAtLimit++;
          return error;
        },
      ),
    );
    const html = await renderMarkdownOffThread(`# Other\n\n${"word ".repeat(100)}`, "org-other");
    expect(html).toContain("<h1>Other</h1>");
    // At most the flooding organization's running text stood ahead of it (and, on a busy machine, the next one
    // while a new worker starts); in one shared line it would wait for all 17, over 30 seconds.
    expect(cutAtLimit).toBeLessThanOrEqual(3);
    await closeMarkdownPool();
    const outcomes = await Promise.all(flood);
    // One running and MARKDOWN_MAX_WAITING waiting were accepted; the rest were refused at once.
    const refused = outcomes.filter((o) => (o as { kind?: string }).kind === "rate_limited");
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({
      message: expect.stringContaining("of this organization"),
      options: expect.objectContaining({ retryAfterSeconds: expect.any(Number) }),
    });
    expect(
      outcomes.slice(0, MARKDOWN_MAX_WAITING + 1).every((o) => o instanceof Error && !("kind" in o)),
    ).toBe(true);
  });

  it("accepts another organization's texts while one is at its cap", async () => {
    const text = (i: number) => `# Text ${i}\n\n${"word ".repeat(100)}`;
    const mine = Array.from({ length: MARKDOWN_MAX_WAITING + 1 }, (_, i) =>
      renderMarkdownOffThread(text(i), "org-a"),
    );
    const refused = renderMarkdownOffThread(text(99), "org-a");
    const theirs = renderMarkdownOffThread(text(100), "org-b");
    await expect(refused).rejects.toMatchObject({ kind: "rate_limited" });
    await expect(theirs).resolves.toContain("<h1>Text 100</h1>");
    expect(await Promise.all(mine)).toHaveLength(MARKDOWN_MAX_WAITING + 1);
  });
});

describe("Markdown nesting", () => {
  it(`accepts ${MAX_MARKDOWN_DEPTH} levels and refuses more, before parsing, at once`, async () => {
    expect(() => checkMarkdownDepth(nestedList(MAX_MARKDOWN_DEPTH))).not.toThrow();
    expect(() => checkMarkdownDepth(">".repeat(MAX_MARKDOWN_DEPTH))).not.toThrow();
    const attacks = [
      nestedList(500),
      ">".repeat(5_000),
      "> ".repeat(5_000),
      "- ".repeat(2_000),
      "1. ".repeat(2_000),
      "> - ".repeat(2_000),
      Array.from({ length: 100 }, (_, i) => ">".repeat(i + 1)).join("\n"),
    ];
    // Rendering a fine text of the same size: the cost of one linear pass on this machine in this run.
    const baseline = await timed(() => renderSafeMarkdown("word ".repeat(2_000)));
    for (const text of attacks) {
      const { ms } = await timed(() => expect(() => renderSafeMarkdown(text)).toThrow(MarkdownTooDeep));
      expect(ms).toBeLessThan(atOnceBound(baseline.ms, 200));
    }
  });

  it("does not count fenced or indented code", () => {
    const code = `\`\`\`\n${">".repeat(100)}\n${"- ".repeat(100)}\n\`\`\`\n\n    ${"> ".repeat(100)}\n`;
    expect(() => checkMarkdownDepth(code)).not.toThrow();
    expect(renderSafeMarkdown(code)).toContain("<pre>");
  });

  it("reports a .md page nested too deep as a build error on its line", async () => {
    const { errors, modules } = await compileMarkdown(
      new Map([["pages/deep.md", `# Deep\n\n${"> ".repeat(40)}quote\n`]]),
      "org-deep",
    );
    expect(errors).toEqual([
      expect.objectContaining({
        file: "pages/deep.md",
        line: 3,
        message: expect.stringMatching(/nested deeper than 32 levels/),
      }),
    ]);
    expect(modules.has("pages/deep.md")).toBe(true);
  });
});
