import { describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { useServedPlatform } from "../support/dashboard.ts";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("hosted forms in headless Chromium", () => {
  const served = useServedPlatform();

  it("a visitor fills the starter's contact form, is redirected to the thank-you page, and the submission is new", async () => {
    const { t, server } = served;
    const website = await t.createWebsite("Browser Form Site");
    const published = await fetch(`${server.url}/v1/websiteSourceCode/head/publish`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.adminKey.plaintextKey}`, "content-type": "application/json" },
      body: JSON.stringify({ websiteId: website.id }),
    });
    expect(published.status).toBe(200);
    const browser = await launchChromium(["--disable-quic", "--disable-component-update", "--disable-sync"]);
    try {
      const page = await browser.newPage();
      const origin = `http://${website.slug}.localhost:${server.port}`;
      const token = page.waitForResponse((r) => r.url().endsWith("/_service/forms/_token"));
      await page.goto(`${origin}/contact/`);
      expect((await token).status()).toBe(200);
      await page.fill("#name", "Grace");
      await page.fill("#email", "grace@example.test");
      await page.fill("#message", "Hello from a real browser");
      // A person takes a few seconds; the signed start time says so.
      await page.waitForTimeout(3_500);
      await Promise.all([
        page.waitForURL(`${origin}/_service/forms/contact/thanks`),
        page.click("button[type=submit]"),
      ]);
      expect(await page.textContent("h1")).toBe("Thank you");
      const list = await fetch(`${server.url}/v1/websites/${website.id}/forms/submissions`, {
        headers: { authorization: `Bearer ${t.adminKey.plaintextKey}` },
      });
      const { items } = (await list.json()) as { items: { state: string; values: unknown; page: string }[] };
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        state: "new",
        values: { name: "Grace", email: "grace@example.test", message: "Hello from a real browser" },
        page: "/contact/",
      });
    } finally {
      await browser.close();
    }
  });
});
