import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, closeSandboxPool, starterFiles } from "../../src/framework/index.ts";
import { mintPreviewToken, previewSecret } from "../../src/hosting/preview-token.ts";
import { decodeContent } from "../../src/services/source-code/content.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { useListeningPlatform } from "../support/platform.ts";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("hosting in headless Chromium", () => {
  const served = useListeningPlatform("sqlite");
  let dir: string;
  beforeAll(async () => {
    // SITEWRIGHT_SCREENSHOT_DIR keeps the screenshots (to look at them); otherwise a temp folder is removed.
    dir =
      process.env.SITEWRIGHT_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), "sitewright-hosting-chromium-"));
  });
  afterAll(async () => {
    await closeSandboxPool();
    if (!process.env.SITEWRIGHT_SCREENSHOT_DIR) rmSync(dir, { recursive: true, force: true });
  });

  it("opens a published site at its subdomain with its stylesheet applied, and a draft through a preview link", async () => {
    // As an agent would: create the website (its draft is the starter) and publish it through the API.
    const website = await served.t.createWebsite("Browser Hosted Site");
    const published = await fetch(`${served.url}/v1/websiteSourceCode/head/publish`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${served.t.adminKey.plaintextKey}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ websiteId: website.id }),
    });
    expect(published.status).toBe(200);
    const result = await buildSite({
      files: starterFiles("Browser Hosted Site"),
      organizationId: "org_test",
      mode: "publish",
    });
    const title = /<title>([^<]*)<\/title>/.exec(result.pages.find((p) => p.route === "/")!.html)![1]!;
    const browser = await launchChromium(["--disable-quic", "--disable-component-update", "--disable-sync"]);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const encodings = new Map<string, string | undefined>();
      page.on("response", (response) => {
        encodings.set(new URL(response.url()).pathname, response.headers()["content-encoding"]);
      });
      const origin = `http://${website.slug}.localhost:${served.port}`;
      const response = await page.goto(`${origin}/`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe(title);
      // The hashed stylesheet loaded and applied: accent button, grid layout, system font stack.
      const probe = await page.evaluate(() => [
        getComputedStyle(document.querySelector(".button")!).backgroundColor,
        getComputedStyle(document.querySelector(".grid")!).display,
        getComputedStyle(document.body).fontFamily.split(",")[0],
      ]);
      expect(probe).toStrictEqual(["rgb(79, 70, 229)", "grid", "system-ui"]);
      // Chromium asks for brotli, and gets it for the page and the stylesheet.
      expect(encodings.get("/")).toBe("br");
      const css = [...encodings.keys()].find((path) => path.startsWith("/_assets/styles-"));
      expect(css && encodings.get(css)).toBe("br");
      const screenshot = join(dir, "home.png");
      await page.screenshot({ path: screenshot, fullPage: true });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);

      // A link without the trailing slash lands on the canonical address.
      await page.goto(`${origin}/about`);
      expect(new URL(page.url()).pathname).toBe("/about/");
      // A missing page shows the site's own 404 page.
      const missing = await page.goto(`${origin}/no-such-page/`);
      expect(missing?.status()).toBe(404);
      expect(await page.title()).toBe("Page not found");

      // A preview link: the token becomes a cookie of the preview host, and the draft renders.
      await served.t.platform.db.transaction(async (s) => {
        const content = decodeContent(
          "pages/index.tsx",
          'import Layout from "../layouts/Layout";\nexport const head = { title: "Draft in the browser" };\nexport default function Home({ route }) { return <Layout route={route}><h1 class="draft">Draft in the browser</h1></Layout>; }\n',
          "utf8",
        );
        await s.sourceFiles.putContent(content, Date.now());
        await s.sourceFiles.put({
          websiteId: website.id,
          path: "pages/index.tsx",
          sha256: content.sha256,
          size: content.size,
          updatedAt: Date.now(),
          updatedByType: "api_key",
          updatedById: served.t.adminKey.id,
        });
      });
      // The per-process secret (no configured preview secret) is shared by everything in this process.
      const token = mintPreviewToken(previewSecret(undefined), {
        websiteId: website.id,
        principal: { type: "api_key", id: served.t.adminKey.id },
      });
      const previewOrigin = `http://preview--${website.slug}.localhost:${served.port}`;
      const preview = await page.goto(`${previewOrigin}/?sitewright_preview=${token}`);
      expect(preview?.status()).toBe(200);
      expect(new URL(page.url()).search).toBe("");
      expect(await page.title()).toBe("Draft in the browser");
      expect(await page.locator("h1.draft").textContent()).toBe("Draft in the browser");
      await page.screenshot({ path: join(dir, "preview.png") });
      // The live site still shows the published version.
      await page.goto(`${origin}/`);
      expect(await page.title()).toBe(title);
    } finally {
      await browser.close();
    }
  });
});
