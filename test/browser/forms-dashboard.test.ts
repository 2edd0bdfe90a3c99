import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { overflows, submitAndSee, useDashboardWebsite } from "../support/dashboard.ts";

// Debian's chromium (never a downloaded browser build).
describe.skipIf(!hasChromium)("the website's forms section in headless Chromium", () => {
  const site = useDashboardWebsite({
    owner: { email: "fern@example.test", name: "Fern" },
    website: "Fern Florist",
  });
  beforeAll(async () => {
    const { d, ownerId, organizationId, websiteId } = site;
    await d.t.callAsUser(ownerId, "websiteSourceCode.head.publish", { websiteId });
    await d.user("cora@example.test", "Cora", { organizationId, role: "content_editor" });
  });

  it("a visitor's submission shows on the dashboard; it is opened, triaged in bulk, exported and the form configured", async () => {
    const { d, ownerId, websiteId, slug, websitePath } = site;
    // A visitor sends the starter's contact form on the live site.
    const visitor = await d.browser.newPage();
    const origin = `http://${slug}.localhost:${d.server.port}`;
    await visitor.goto(`${origin}/contact/`);
    await visitor.fill("#name", "Grace");
    await visitor.fill("#email", "grace@example.test");
    await visitor.fill("#message", "Do you deliver tulips?");
    await visitor.waitForTimeout(3_500); // a person takes a few seconds; the signed start time says so
    await Promise.all([visitor.waitForURL(/\/thanks$/), visitor.click("button[type=submit]")]);
    await visitor.close();

    const { context, page } = await d.signIn("fern@example.test");
    await page.goto(websitePath);
    await page.click('nav.tabs a:has-text("Forms")');
    await page.waitForSelector('h2:has-text("Submissions")');
    expect(await page.locator('[data-testid="count-new"]').allInnerTexts()).toEqual(["1"]);
    expect(await page.locator('[data-testid="submission-state"]').allInnerTexts()).toEqual(["new"]);

    // Open it, read every value, mark it read.
    await page.click('[data-testid="submission"]');
    const values = await page.locator('[data-testid="submission-values"]').innerText();
    expect(values).toContain("Do you deliver tulips?");
    expect(values).toContain("grace@example.test");
    await submitAndSee(page, 'button:has-text("Mark read")', "Submissions updated.");
    expect(await page.locator('[data-testid="submission-state"]').innerText()).toBe("read");

    // Filters: state new matches nothing now, state read finds it.
    await page.click('a:has-text("All submissions")');
    await page.selectOption('select[name="state"]', "new");
    await Promise.all([page.waitForURL(/state=new/), page.click('button:has-text("Filter")')]);
    await page.waitForSelector("text=No submissions");
    await page.selectOption('select[name="state"]', "read");
    await Promise.all([page.waitForURL(/state=read/), page.click('button:has-text("Filter")')]);
    expect(await page.locator('[data-testid="submission"]').count()).toBe(1);

    // Bulk: select it and archive; the filter is kept, so the list is empty after.
    await page.check('input[name="submissionIds"]');
    await submitAndSee(page, 'button:has-text("Mark archived")', "Submissions updated.");
    expect(page.url()).toContain("state=read");
    await page.waitForSelector("text=No submissions");

    // Export: a CSV download with the header and the row.
    await page.goto(`${websitePath}/forms`);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click('[data-testid="export-csv"]'),
    ]);
    expect(download.suggestedFilename()).toMatch(/^forms-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toMatch(/^id,form,state,createdAt,page/);
    expect(csv).toContain("Do you deliver tulips?");
    expect(csv).toContain(",archived,");

    // Settings: a bad success URL is refused with the field named, a good one is saved.
    await page.click('a:has-text("Settings")');
    await page.fill('input[name="successUrl"]', "javascript:alert(1)");
    await submitAndSee(page, 'button:has-text("Save settings")', "successUrl");
    await page.fill('input[name="successUrl"]', "/thanks/");
    await page.selectOption('select[name="spamSensitivity"]', "high");
    await submitAndSee(page, 'button:has-text("Save settings")', "Form settings saved.");
    const [form] = (await d.t.callAsUser(ownerId, "forms.list", { websiteId })).items;
    expect(form!.settings).toMatchObject({ successUrl: "/thanks/", spamSensitivity: "high", enabled: true });

    // Recipients: added pending (a confirmation is mailed), then removed.
    await page.fill('input[name="email"]', "orders@fern.example");
    await submitAndSee(page, 'button:has-text("Add recipient")', "Recipient added.");
    expect(await page.locator('[data-testid="recipient"]').allInnerTexts()).toEqual(["orders@fern.example"]);
    expect(await page.locator("section:has(h2:has-text('Notification recipients'))").innerText()).toContain(
      "pending",
    );
    await submitAndSee(
      page,
      'section:has(h2:has-text("Notification recipients")) button:has-text("Remove")',
      "Recipient removed.",
    );
    await page.waitForSelector("text=No recipients");

    // Delete from the submission page.
    await page.click('[data-testid="submission"]');
    await submitAndSee(page, 'button:has-text("Delete")', "Submissions deleted.");
    await page.waitForSelector("text=No submissions");
    await context.close();
  });

  it("a content editor sees the form settings read-only and no recipient controls", async () => {
    const { d, websitePath } = site;
    const { context, page } = await d.signIn("cora@example.test");
    await page.goto(`${websitePath}/forms`);
    await page.waitForSelector('h2:has-text("Submissions")');
    expect(await page.locator('button:has-text("Add recipient")').count()).toBe(0);
    await page.click('a:has-text("Settings")');
    await page.waitForSelector('[data-testid="read-only"]');
    expect(await page.locator('button:has-text("Save settings")').count()).toBe(0);
    expect(await page.locator('input[name="successUrl"]').isDisabled()).toBe(true);
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`the forms section fits a ${viewport.width} px window`, async () => {
      const { d, websitePath } = site;
      const { context, page } = await d.signIn("fern@example.test", viewport);
      await page.goto(`${websitePath}/forms`);
      expect(await overflows(page)).toBe(false);
      for (const selector of ['select[name="state"]', '[data-testid="export-csv"]', 'input[name="email"]'])
        expect(await page.locator(selector).first().isVisible(), selector).toBe(true);
      await context.close();
    });
  }
});
