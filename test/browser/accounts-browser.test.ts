import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../src/auth/authenticate.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { useListeningPlatform } from "../support/platform.ts";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("accounts in headless Chromium", () => {
  const served = useListeningPlatform("sqlite");
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("signs up, signs out, signs in and lands on the dashboard, keeping a Secure cookie on http://localhost", async () => {
    const origin = `http://localhost:${served.port}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const address = `chromium-${Date.now()}@example.test`;
    const password = "a long enough password";

    // Signed out, the root sends the visitor to sign in; from there to sign up.
    await page.goto(`${origin}/`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await page.click("a[href='/signup']");
    await page.fill("input[name=name]", "Chromium User");
    await page.fill("input[name=email]", address);
    await page.fill("input[name=password]", password);
    await Promise.all([page.waitForURL(/\/orgs\/[\w-]+\/websites$/), page.click("button[type=submit]")]);
    expect(await page.content()).toContain("Chromium User");

    // The session cookie as Chromium kept it: HttpOnly, SameSite=Lax, and Secure even on plain http://localhost.
    const cookie = (await context.cookies(origin)).find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain(SESSION_COOKIE);

    // Sign out through the account menu's form (a POST with the CSRF token).
    await page.click("summary[aria-label='Account menu']");
    await Promise.all([page.waitForURL(/\/signin$/), page.click("form[action='/signout'] button")]);
    expect((await context.cookies(origin)).some((c) => c.name === SESSION_COOKIE)).toBe(false);
    await page.goto(`${origin}/`);
    expect(new URL(page.url()).pathname).toBe("/signin");

    // A wrong password gets the generic error; the right one lands on the dashboard.
    await page.fill("input[name=email]", address);
    await page.fill("input[name=password]", "not the password");
    await Promise.all([page.waitForLoadState(), page.click("button[type=submit]")]);
    expect(await page.textContent("[role=alert]")).toContain("Email or password is incorrect.");
    await page.fill("input[name=password]", password);
    await Promise.all([page.waitForURL(/\/orgs\/[\w-]+\/websites$/), page.click("button[type=submit]")]);
    expect(await page.title()).toContain("Sitewright");

    // A protected page while signed out returns there after signing in.
    const websites = new URL(page.url()).pathname;
    await context.clearCookies();
    await page.goto(`${origin}${websites}`);
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(
      `/signin?next=${encodeURIComponent(websites)}`,
    );
    await page.fill("input[name=email]", address);
    await page.fill("input[name=password]", password);
    await Promise.all([page.waitForURL(`${origin}${websites}`), page.click("button[type=submit]")]);
    await context.close();
  });
});
