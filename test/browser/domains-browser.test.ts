import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../../src/accounts/accounts.ts";
import { freeAccount } from "../../src/services/billing/account.ts";
import { defaultDomainConfig } from "../../src/services/domains/config.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { type ServedPlatform, servePlatform } from "../support/dashboard.ts";
import { startDnsServer, type TestDnsServer } from "../support/dns-server.ts";
import type { TestPlatform } from "../support/platform.ts";

const PASSWORD = "a long enough password";

async function submit(page: Page, selector: string, notice: string) {
  await Promise.all([page.waitForSelector(`text=${notice}`), page.click(selector)]);
}

// Debian's chromium (never a downloaded browser build).
describe.skipIf(!hasChromium)("the website's domains section in headless Chromium", () => {
  let served: ServedPlatform;
  let t: TestPlatform;
  let browser: Browser;
  let dns: TestDnsServer;
  let app: string;
  beforeAll(async () => {
    dns = await startDnsServer();
    served = await servePlatform({ domains: { ...defaultDomainConfig(), dnsServers: [dns.address] } });
    ({ t, app } = served);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await dns?.close();
  });

  it("adds a domain, shows its records with copy buttons, verifies each record, makes it primary and removes it", async () => {
    await signUp(t.platform, { email: "dora@example.test", password: PASSWORD, name: "Dora" });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app });
    const page = await context.newPage();
    await page.goto(`${app}/`);
    await page.fill('input[name="email"]', "dora@example.test");
    await page.fill('input[name="password"]', PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.pathname !== "/signin"),
      page.click('button:has-text("Sign in")'),
    ]);
    await page.fill('input[name="name"]', "Dora Bakery");
    await submit(page, 'button:has-text("Create website")', "Website created.");
    await page.click('a:has-text("Dora Bakery")');
    await page.waitForSelector('h1:has-text("Dora Bakery")');
    const organizationId = new URL(page.url()).pathname.split("/")[2]!;
    await t.platform.db.transaction((s) =>
      s.billing.putAccount({
        ...freeAccount(organizationId, Date.now()),
        status: "active",
        plan: "pro",
        interval: "monthly",
        billableSiteCapacity: 1,
      }),
    );

    await page.click('nav a:has-text("Domains"), a:has-text("Domains")');
    await page.waitForSelector("text=No custom domains");
    await page.fill('input[name="hostname"]', "https://bad.example/");
    await submit(page, 'button:has-text("Add domain")', "not a bare domain name");
    expect(await page.inputValue('input[name="hostname"]')).toBe("https://bad.example/");
    await page.fill('input[name="hostname"]', "dora-bakery.example");
    await submit(page, 'button:has-text("Add domain")', "Domain added.");

    const apex = page.locator('[data-testid="domain"][data-hostname="dora-bakery.example"]');
    const www = page.locator('[data-testid="domain"][data-hostname="www.dora-bakery.example"]');
    expect(await page.locator('[data-testid="domain"]').count()).toBe(2);
    expect(await apex.locator(".badge", { hasText: "pending" }).count()).toBe(1);
    const txtName = await apex.locator("#d0-r0-name").inputValue();
    const txtValue = await apex.locator("#d0-r0-value").inputValue();
    expect(txtName).toBe("_sitewright-challenge.dora-bakery.example");
    expect(txtValue).toMatch(/^sitewright-verification=/);
    expect(await www.locator("#d1-r1-value").inputValue()).toBe("localhost");
    await apex.locator('button[data-copy="d0-r0-value"]').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txtValue);
    expect(await apex.locator('[data-testid="record-status"]').allInnerTexts()).toEqual([
      "unchecked",
      "unchecked",
    ]);

    await submit(
      page,
      '[data-hostname="dora-bakery.example"] button:has-text("Verify now")',
      "DNS records checked.",
    );
    expect(await apex.locator('[data-testid="record-status"]').allInnerTexts()).toEqual([
      "missing",
      "missing",
    ]);
    dns.set(txtName, "TXT", [txtValue]);
    dns.set("dora-bakery.example", "CNAME", ["elsewhere.example"]);
    await submit(
      page,
      '[data-hostname="dora-bakery.example"] button:has-text("Verify now")',
      "DNS records checked.",
    );
    expect(await apex.locator('[data-testid="record-status"]').allInnerTexts()).toEqual([
      "found",
      "mismatch",
    ]);
    expect(await apex.innerText()).toContain("Found elsewhere.example");
    expect(await apex.locator(".badge", { hasText: "verified" }).count()).toBe(1);

    await submit(
      page,
      '[data-hostname="dora-bakery.example"] button:has-text("Make primary")',
      "Primary domain set.",
    );
    expect(await apex.locator(".badge", { hasText: "primary" }).count()).toBe(1);
    await submit(page, '[data-hostname="dora-bakery.example"] button:has-text("Remove")', "Domain removed.");
    await page.waitForSelector("text=No custom domains");
    await context.close();
  });
});
