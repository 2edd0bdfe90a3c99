import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { useServedPlatform } from "../support/dashboard.ts";
import { publishFiles, rawRequest } from "../support/hosting.ts";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("assets in headless Chromium", () => {
  const served = useServedPlatform();

  const upload = async (websiteId: string, bytes: Buffer, query: string) => {
    const { t, server } = served;
    const response = await fetch(`${server.url}/v1/websites/${websiteId}/assets${query}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${t.adminKey.plaintextKey}`,
        "content-type": "application/octet-stream",
      },
      body: new Uint8Array(bytes),
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  it("renders a page whose Image picks a resized WebP variant from srcset, and keeps an SVG's script inert", async () => {
    const { t, server } = served;
    const website = await t.createWebsite("Browser Assets Site");
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#228844" } })
      .jpeg()
      .toBuffer();
    const asset = await upload(website.id, photo, "?name=field.jpg&alt=A%20green%20field");
    const svg = await upload(
      website.id,
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert("svg script ran")</script></svg>`,
      ),
      "?name=trap.svg",
    );
    await publishFiles(t.platform, website.id, {
      "pages/index.tsx": `import { Image } from "sitewright:assets";
const field = ${JSON.stringify({ path: asset.path, width: asset.width, height: asset.height, alt: asset.alt })};
export default function Home() {
  return <main><h1>Assets</h1><Image src={field} sizes="(max-width: 600px) 100vw, 600px" loading="eager" /></main>;
}`,
    });
    const browser = await launchChromium(["--disable-quic", "--disable-component-update", "--disable-sync"]);
    try {
      const page = await browser.newPage({ viewport: { width: 400, height: 800 }, deviceScaleFactor: 1 });
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const types = new Map<string, string | undefined>();
      page.on("response", (response) => types.set(response.url(), response.headers()["content-type"]));
      const origin = `http://${website.slug}.localhost:${server.port}`;
      expect((await page.goto(`${origin}/`))?.status()).toBe(200);
      await page.waitForFunction(() => {
        const img = document.querySelector("img");
        return img?.complete && img.naturalWidth > 0;
      });
      const image = await page.evaluate(() => {
        const img = document.querySelector("img")!;
        return {
          currentSrc: img.currentSrc,
          naturalWidth: img.naturalWidth,
          srcset: img.getAttribute("srcset"),
          width: img.getAttribute("width"),
          height: img.getAttribute("height"),
          alt: img.alt,
        };
      });
      expect(image.srcset).toContain("?w=320&format=webp 320w");
      expect(image.width).toBe("1600");
      expect(image.height).toBe("900");
      expect(image.alt).toBe("A green field");
      // A 400-pixel-wide viewport at 1x picks the 480-pixel variant (the smallest at least 400 wide).
      expect(image.currentSrc).toBe(`${origin}${asset.path}?w=480&format=webp`);
      const variant = await rawRequest(
        server.port,
        `${website.slug}.localhost`,
        `${asset.path}?w=480&format=webp`,
      );
      expect(await sharp(variant.body).metadata()).toMatchObject({ format: "webp", width: 480, height: 270 });
      expect(types.get(image.currentSrc)).toBe("image/webp");

      // The SVG opened directly: its script never runs (sandboxed by the response's CSP).
      const opened = await page.goto(`${origin}${svg.path}`);
      expect(opened?.headers()["content-security-policy"]).toContain("sandbox");
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
