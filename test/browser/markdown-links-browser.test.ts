import { describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { useServedPlatform } from "../support/dashboard.ts";

/** Script URLs spelled the ways browsers still read as javascript: (and two other script-capable schemes). */
const ATTACKS = [
  "[decimal](&#106;avascript:alert(1))",
  "[tab](java&#x09;script:alert(2))",
  "[colon](javascript&colon;alert(3))",
  "[no semicolons](&#x6A&#x61vascript:alert(4))",
  "[zeros](&#0000106avascript:alert(5))",
  "[mixed case](JaVaScRiPt:alert(6))",
  "[named tab](&Tab;javascript:alert(7))",
  "[newline](java&NewLine;script:alert(8))",
  "[vbscript](vbscript:msgbox(9))",
  "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxMCk8L3NjcmlwdD4=)",
  "![image](&#106;avascript:alert(11))",
  '[title](javascript:alert(12) "t")',
];
const MARKDOWN = [
  ...ATTACKS.map((line) => `- ${line}`),
  "",
  "[safe](https://example.com/a?b=1&amp;c=2) [relative](/about/) [anchor](#top) [mail](mailto:a@example.com)",
].join("\n");

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("Markdown links in headless Chromium", () => {
  const served = useServedPlatform();

  it("publishes richText and a .md page with script URLs, and nothing runs: only safe hrefs are kept", async () => {
    const { t, server } = served;
    const website = await t.createWebsite("Link Safety");
    const blog = await t.call("cms.collections.create", {
      websiteId: website.id,
      name: "Blog",
      slug: "blog",
      fields: [
        { key: "title", name: "Title", type: "text", required: true },
        { key: "body", name: "Body", type: "richText" },
      ],
    });
    const item = await t.call("cms.items.create", {
      websiteId: website.id,
      collectionId: blog.id,
      values: { title: "Links", body: MARKDOWN },
      publish: true,
    });
    const { leaseId } = await t.call("websiteSourceCode.lease.acquire", { websiteId: website.id });
    await t.call("websiteSourceCode.files.write", {
      websiteId: website.id,
      leaseId,
      path: "pages/links.md",
      content: `# Links\n\n${MARKDOWN}\n`,
    });
    await t.call("websiteSourceCode.lease.release", { websiteId: website.id, leaseId });
    await t.call("websiteSourceCode.head.publish", { websiteId: website.id });

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const origin = `http://${website.slug}.localhost:${server.port}`;
      for (const path of [`/blog/${item.slug}/`, "/links/"]) {
        const response = await page.goto(`${origin}${path}`);
        expect(response?.status(), path).toBe(200);
        const content = page.locator(path === "/links/" ? ".markdown" : "article");
        for (const text of [
          "decimal",
          "tab",
          "colon",
          "no semicolons",
          "zeros",
          "mixed case",
          "vbscript",
          "data",
        ]) {
          expect(await content.textContent(), `${path} keeps the text of '${text}'`).toContain(text);
        }
        const links = await content.locator("a").evaluateAll((anchors) =>
          anchors.map((a) => ({
            text: a.textContent,
            protocol: (a as HTMLAnchorElement).protocol,
            href: a.getAttribute("href"),
          })),
        );
        for (const link of links)
          expect(["http:", "https:", "mailto:"], JSON.stringify(link)).toContain(link.protocol);
        expect(links.find((l) => l.text === "safe")?.href).toBe("https://example.com/a?b=1&c=2");
        expect(links.map((l) => l.text).filter((text) => text !== "← All posts")).toEqual([
          "safe",
          "relative",
          "anchor",
          "mail",
        ]);
        const images = await content.locator("img").count();
        expect(images).toBe(0);
        // Click every link left (each one safe) and every list entry: nothing may open a dialog.
        for (const entry of await content.locator("li").all()) await entry.click();
        await content.locator("a", { hasText: "anchor" }).click();
        await page.waitForTimeout(200);
      }
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
