import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { type Dashboard, signInThroughForm, startDashboard } from "../support/dashboard.ts";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("the website page in headless Chromium", () => {
  // The app at http://localhost:<port>; live sites and previews at <slug>.localhost:<port> (loopback in Chromium).
  let d: Dashboard;
  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(() => d?.close());

  it("publishes, previews the draft as the signed-in user, edits and publishes a CMS item, and rolls back", async () => {
    const { t, browser, app } = d;
    const user = await d.user("olivia@example.test", "Olivia");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${app}/`);
    await signInThroughForm(page, "olivia@example.test");
    await page.fill('input[name="name"]', "Harbor Cafe");
    await page.click('button:has-text("Create website")');
    await page.waitForSelector("text=Website created.");
    // Unpublished: no live link in the list, nor on the website page.
    expect(await page.locator('a[href^="http://harbor-cafe.localhost"]').count()).toBe(0);
    await page.click('a:has-text("Harbor Cafe")');
    await page.waitForSelector('h1:has-text("Harbor Cafe")');
    expect(await page.locator('a[href^="http://harbor-cafe.localhost"]').count()).toBe(0);
    const websitePage = page.url();
    const websiteId = websitePage.split("/").pop()!;

    // An agent fills the CMS: the starter's blog page lists the "blog" collection.
    const blog = await t.callAsUser(user.id, "cms.collections.create", {
      websiteId,
      name: "Blog",
      slug: "blog",
      fields: [
        { key: "title", name: "Title", type: "text", required: true },
        { key: "date", name: "Date", type: "date" },
        { key: "excerpt", name: "Excerpt", type: "longText" },
      ],
    });
    await t.callAsUser(user.id, "cms.items.create", {
      websiteId,
      collectionId: blog.id,
      values: { title: "Opening day", date: "2026-05-01" },
    });

    // Publish: the page now links the live site.
    await page.click('button:has-text("Publish website")');
    await page.waitForSelector("text=Draft published.");
    const live = "http://harbor-cafe.localhost";
    expect(await page.locator(`a[href^="${live}"]`).first().isVisible()).toBe(true);

    // Preview as the signed-in user: a new tab on the preview host, showing draft CMS values.
    const [preview] = await Promise.all([
      context.waitForEvent("page"),
      page.click('[data-testid="preview-draft"]'),
    ]);
    await preview.waitForLoadState();
    expect(new URL(preview.url()).host).toMatch(/^preview--harbor-cafe\.localhost:\d+$/);
    expect(preview.url()).not.toContain("sitewright_preview");
    await preview.goto(new URL("/blog/", preview.url()).href);
    expect(await preview.textContent("main")).toContain("Opening day");
    await preview.close();

    // Edit the item in the CMS section and publish it.
    await page.click('nav.tabs a:has-text("CMS")');
    await page.click('a:has-text("Blog")');
    await page.locator("tr", { hasText: "Opening day" }).locator('a:has-text("Edit")').click();
    await page.fill('input[name="v.title"]', "Grand opening");
    await page.fill('textarea[name="v.excerpt"]', "Coffee from seven.");
    await page.click('button:has-text("Save draft")');
    await page.waitForSelector("text=Draft saved.");
    await page.click('form[action$="/publish"] button:has-text("Publish")');
    await page.waitForSelector("text=Item published.");
    expect(await page.locator(".kv").textContent()).toContain("Published");

    // Publish the website again: the live blog shows the edited item.
    await page.click('nav.tabs a:has-text("Overview")');
    await page.click('button:has-text("Publish draft")');
    await page.waitForSelector("text=Draft published.");
    const liveBlog = await context.newPage();
    const liveUrl = (await page.locator(`a[href^="${live}"]`).first().getAttribute("href"))!;
    await liveBlog.goto(new URL("/blog/", liveUrl).href);
    expect(await liveBlog.textContent("main")).toContain("Grand opening");

    // Roll back to the first deployment, after its confirm step: the live blog is as it was.
    await page.click('nav.tabs a:has-text("Deployments")');
    expect(await page.locator("tbody tr").count()).toBe(2);
    await page.click('a:has-text("Roll back to this")');
    await page.waitForSelector("text=Roll back the live site to this deployment?");
    await page.click('button:has-text("Roll back the live site")');
    await page.waitForSelector("text=Rolled back.");
    expect(await page.locator("tbody tr").nth(1).textContent()).toContain("Live");
    await liveBlog.reload();
    expect(await liveBlog.textContent("main")).not.toContain("Grand opening");
    await context.close();
  });

  it("sends a signed-in user from the preview host's 401 page through sign-in to the preview", async () => {
    const { t, browser, server } = d;
    const user = await d.user("pia@example.test", "Pia");
    const website = await t.callAsUser(user.id, "websites.create", {
      name: "Pia Studio",
      organizationId: user.organizationId,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const previewHost = `http://preview--${website.slug}.localhost:${server.port}`;
    const denied = await page.goto(`${previewHost}/`);
    expect(denied?.status()).toBe(401);
    await page.click('a:has-text("Sign in to preview")');
    expect(new URL(page.url()).pathname).toBe("/signin");
    await signInThroughForm(page, "pia@example.test");
    expect(new URL(page.url()).pathname).toBe(`/preview/${website.slug}`);
    await Promise.all([
      page.waitForURL((url) => url.host.startsWith(`preview--${website.slug}.`)),
      page.click('[data-testid="preview-draft"]'),
    ]);
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.locator("main").count()).toBe(1);
    expect(await page.textContent("body")).not.toContain("Sign in to preview");
    await context.close();
  });
});
