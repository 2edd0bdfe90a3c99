import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium } from "../support/browser.ts";
import { type Dashboard, signInThroughForm, startDashboard } from "../support/dashboard.ts";
import { verificationPath } from "../support/verify-email.ts";

// Screenshots to look at: SITEWRIGHT_SCREENSHOT_DIR, else /tmp.
const SHOTS = process.env.SITEWRIGHT_SCREENSHOT_DIR ?? "/tmp";

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("the dashboard in headless Chromium", () => {
  // The app is reached at http://localhost:<port>, as in dev (its session cookie is Secure on localhost).
  let d: Dashboard;
  beforeAll(async () => {
    d = await startDashboard();
  });
  afterAll(() => d?.close());

  it("signs in, creates and revokes a key, invites a member who accepts in another browser, changes their role", async () => {
    const { t, browser, app } = d;
    await d.user("owner@example.test", "Olivia Owner");
    await d.user("member@example.test", "Max Member");
    const owner = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await owner.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app });
    const page = await owner.newPage();

    // Sign in; the root sends the owner to their organization's websites.
    await page.goto(`${app}/`);
    expect(new URL(page.url()).pathname).toBe("/signin");
    await signInThroughForm(page, "owner@example.test");
    expect(page.url()).toMatch(/\/orgs\/[^/]+\/websites$/);
    const base = new URL(page.url()).pathname.replace(/\/websites$/, "");

    await page.fill('input[name="name"]', "Marketing Site");
    await page.click('button:has-text("Create website")');
    await page.waitForSelector("text=Website created.");
    await page.fill('input[name="name"]', "Docs");
    await page.click('button:has-text("Create website")');
    await page.waitForSelector("text=Website created.");
    // Not published yet: each row opens its website page, and no live link leads to a 404.
    expect(await page.locator('a:has-text("Marketing Site")').count()).toBe(1);
    expect(await page.locator('a[href^="http://marketing-site.localhost"]').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, "dashboard-websites.png"), fullPage: true });

    // Create a key: the plaintext is shown once, with a working copy button.
    await page.click('nav a:has-text("API keys")');
    await page.fill('input[name="name"]', "Claude Code");
    await page.selectOption('select[name="role"]', "full_editor");
    await page.check('input[name="accessKind"][value="websites"]');
    await page.check('label.choice:has-text("Marketing Site") input');
    await page.click('button:has-text("Create key")');
    const plaintext = await page.inputValue("#plaintext-key");
    expect(plaintext).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const copy = page.locator('button[data-copy="plaintext-key"]');
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await page.waitForSelector('button[data-copy="plaintext-key"]:has-text("Copied")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
    await page.screenshot({ path: join(SHOTS, "dashboard-api-keys.png"), fullPage: true });
    await page.goto(`${app}${base}/api-keys`);
    expect(await page.content()).not.toContain(plaintext);

    // Invite a member by email. The owner's dev outbox holds only the owner's own mail, never the invitation.
    await page.click('nav a:has-text("Invitations")');
    await page.fill('input[name="email"]', "member@example.test");
    await page.selectOption('select[name="role"]', "content_editor");
    await page.click('button:has-text("Send invitation")');
    await page.waitForSelector("text=Invitation sent.");
    await page.click('nav a:has-text("Dev outbox")');
    expect(await page.locator('pre.mail a[href*="/invitations/accept?token="]').count()).toBe(0);

    // The member, in their own browser, signs in, verifies their address with the link printed to the console
    // (the banner says it is pending), then finds the invitation in their own outbox and accepts it.
    const memberContext = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const member = await memberContext.newPage();
    await member.goto(`${app}/signin`);
    await signInThroughForm(member, "member@example.test");
    await member.waitForSelector('[data-testid="verify-email-banner"]');
    await member.goto(`${app}${await verificationPath(t.platform, "member@example.test")}`);
    await member.waitForSelector("text=Email address verified.");
    expect(await member.locator('[data-testid="verify-email-banner"]').count()).toBe(0);
    await member.click('nav a:has-text("Dev outbox")');
    const link = await member
      .locator('pre.mail a[href*="/invitations/accept?token="]')
      .first()
      .getAttribute("href");
    expect(link).toContain(`${app}/invitations/accept?token=`);
    await member.goto(link!);
    expect(member.url()).toBe(link);
    await member.click('button:has-text("Accept invitation")');
    await member.waitForSelector("text=Invitation accepted.");
    expect(member.url()).toContain(`${base}/websites`);
    expect(await member.locator('nav a:has-text("API keys")').count()).toBe(0);
    expect(await member.locator('nav a:has-text("Billing")').count()).toBe(0);
    await member.click('[data-testid="org-switcher"] summary');
    expect(await member.locator('[data-testid="org-switcher"] .menu-panel a').count()).toBeGreaterThanOrEqual(
      3,
    );

    // The owner changes the member's role.
    await page.click('nav a:has-text("Members")');
    const row = page.locator("tr", { hasText: "member@example.test" });
    await row.locator('select[name="role"]').selectOption("full_editor");
    await row.locator('button:has-text("Save")').click();
    await page.waitForSelector("text=Role updated.");
    expect(await page.locator("tr", { hasText: "member@example.test" }).locator("select").inputValue()).toBe(
      "full_editor",
    );

    // Revoke the key: it moves to the revoked list and stops working.
    await page.click('nav a:has-text("API keys")');
    await page.locator("tr", { hasText: "Claude Code" }).locator('button:has-text("Revoke")').click();
    await page.waitForSelector("text=API key revoked.");
    const revoked = page.locator("section.card", { hasText: "Revoked keys" });
    expect(await revoked.locator("tr", { hasText: "Claude Code" }).count()).toBe(1);
    const api = await fetch(`${app}/v1/websites`, { headers: { authorization: `Bearer ${plaintext}` } });
    expect(api.status).toBe(401);
    await memberContext.close();
    await owner.close();
  });
});
