import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { overflows, submitAndSee, useDashboardWebsite } from "../support/dashboard.ts";
import { publishFiles } from "../support/hosting.ts";

// Debian's chromium (never a downloaded browser build).
describe.skipIf(!hasChromium)("the website's assets section in headless Chromium", () => {
  const site = useDashboardWebsite({
    owner: { email: "ines@example.test", name: "Ines" },
    website: "Ines Interiors",
  });
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "sitewright-assets-dashboard-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uploads an image, shows its variant thumbnail, edits its alt text, refuses to delete it in use, then deletes it", async () => {
    const { d, ownerId, websiteId, websitePath } = site;
    const photo = join(dir, "sofa.png");
    writeFileSync(
      photo,
      await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#aa5533" } })
        .png()
        .toBuffer(),
    );
    const { context, page } = await d.signIn("ines@example.test");
    const variants: string[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/_assets/") && r.status() === 200) variants.push(r.url());
    });
    await page.goto(websitePath);
    await page.click('nav.tabs a:has-text("Assets")');
    await page.waitForSelector("text=No assets");
    await page.setInputFiles('input[type="file"]', photo);
    await page.fill('#upload input[name="alt"]', "A sofa");
    await submitAndSee(page, 'button:has-text("Upload")', "Uploaded.");

    // The grid shows the upload with a small variant (?w=) loaded from the website's host.
    const tile = page.locator('[data-testid="asset"][data-name="sofa.png"]');
    expect(await tile.innerText()).toContain("1200×800");
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="thumbnail"]');
      return img?.complete && img.naturalWidth > 0;
    });
    const thumb = await page.locator('[data-testid="thumbnail"]').evaluate((img: HTMLImageElement) => ({
      src: img.currentSrc,
      width: img.naturalWidth,
      alt: img.alt,
    }));
    expect(thumb).toMatchObject({ width: 256, alt: "A sofa" });
    expect(thumb.src).toMatch(/\/_assets\/[0-9a-f]{64}\/sofa\.png\?w=256$/);
    expect(variants).toContain(thumb.src);

    // Edit the alt text; a bad name is refused with the field named and nothing changes.
    await tile.click();
    await page.fill('input[name="name"]', "bad/name.png");
    await submitAndSee(page, 'button:has-text("Save")', "name");
    await page.fill('input[name="name"]', "sofa.png");
    await page.fill('input[name="alt"]', "A rust-coloured sofa");
    await submitAndSee(page, 'button:has-text("Save")', "Asset saved.");
    const [asset] = (await d.t.callAsUser(ownerId, "assets.list", { websiteId, limit: 10 })).items;
    expect(asset).toMatchObject({ name: "sofa.png", alt: "A rust-coloured sofa" });
    await page.waitForSelector("text=No live page or CMS item names this asset.");

    // Used by a live page: usage lists it, delete answers the conflict, then deleting anyway works.
    await publishFiles(d.t.platform, websiteId, {
      "pages/index.tsx": `export default function Home() { return <main><img src="${asset!.path}" alt="" /></main>; }`,
    });
    await page.reload();
    expect(await page.locator("text=Live page").count()).toBe(1);
    await page.click('button:has-text("Delete asset")');
    await page.waitForSelector('[role="alert"]');
    expect(await page.locator('[role="alert"]').innerText()).toMatch(/use/i);
    expect((await d.t.callAsUser(ownerId, "assets.list", { websiteId, limit: 10 })).items).toHaveLength(1);
    await submitAndSee(page, 'button:has-text("Delete anyway")', "Asset deleted.");
    await page.waitForSelector("text=No assets");
    expect((await d.t.callAsUser(ownerId, "assets.list", { websiteId, limit: 10 })).items).toHaveLength(0);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`the assets section fits a ${viewport.width} px window`, async () => {
      const { d, ownerId, websiteId, websitePath } = site;
      await d.t.callAsUser(ownerId, "assets.upload", {
        websiteId,
        name: `tile-${viewport.width}.png`,
        contentBase64: (
          await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
            .png()
            .toBuffer()
        ).toString("base64"),
      });
      const { context, page } = await d.signIn("ines@example.test", viewport);
      await page.goto(`${websitePath}/assets`);
      expect(await overflows(page)).toBe(false);
      expect(await page.locator('[data-testid="asset"]').first().isVisible()).toBe(true);
      expect(await page.locator('button:has-text("Upload")').isVisible()).toBe(true);
      await page.locator('[data-testid="asset"]').first().click();
      expect(await overflows(page)).toBe(false);
      await context.close();
    });
  }
});
