import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConnectedClients } from "../../src/oauth/connections.ts";
import { hasChromium } from "../support/browser.ts";
import { type Dashboard, overflows, startDashboard } from "../support/dashboard.ts";
import { pkce } from "../support/oauth-http.ts";

const CLIENT_NAME = "Connect like Claude Code (Sitewright example)";
const widths = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;

// Debian's chromium (never a downloaded browser build); skipped where it is not installed.
describe.skipIf(!hasChromium)("dashboard and consent screens at desktop and mobile widths", () => {
  let d: Dashboard;
  let app: string;
  let dir: string;
  let base: string;
  let userId: string;
  let websites: { id: string; name: string }[];
  let otherOrganization: string;
  let authorizeUrl: string;
  let callback: { server: Server; host: string };
  beforeAll(async () => {
    // The client's loopback listener for the redirect, as a CLI runs one.
    const listener = createHttpServer((_request, response) =>
      response.writeHead(200, { "content-type": "text/html" }).end("<p>You can close this window.</p>"),
    );
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    callback = { server: listener, host: `127.0.0.1:${(listener.address() as { port: number }).port}` };
    const redirectUri = `http://${callback.host}/callback`;
    d = await startDashboard();
    const { t } = d;
    app = d.app;
    // SITEWRIGHT_SCREENSHOT_DIR keeps the screenshots (to look at them); otherwise a temp folder is removed.
    dir = process.env.SITEWRIGHT_SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), "sitewright-screens-"));

    const user = await d.user("olivia@example.test", "Olivia");
    userId = user.id;
    const { organizationId } = user;
    base = `/orgs/${organizationId}`;
    websites = [];
    for (const name of ["Harbor Cafe — seasonal menu and opening hours", "Studio Notes"]) {
      websites.push(await t.callAsUser(userId, "websites.create", { name, organizationId }));
    }
    await t.callAsUser(userId, "websiteSourceCode.head.publish", { websiteId: websites[0]!.id });
    const blog = await t.callAsUser(userId, "cms.collections.create", {
      websiteId: websites[0]!.id,
      name: "Blog",
      slug: "blog",
      fields: [
        { key: "title", name: "Title", type: "text", required: true },
        { key: "excerpt", name: "Excerpt", type: "longText" },
        { key: "featured", name: "Featured", type: "boolean" },
      ],
    });
    await t.callAsUser(userId, "cms.items.create", {
      websiteId: websites[0]!.id,
      collectionId: blog.id,
      values: { title: "A very long title of an opening-day post that has to wrap on a phone screen" },
    });
    const other = await t.callAsUser(userId, "organizations.create", { name: "Side Projects" });
    otherOrganization = other.id;
    await t.callAsUser(userId, "websites.create", { name: "Garden Club", organizationId: other.id });

    // A client as Claude Code registers one: Dynamic Client Registration with a loopback redirect.
    const registered = await fetch(`${app}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: CLIENT_NAME, redirect_uris: [redirectUri] }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const url = new URL(`${app}/oauth/authorize`);
    for (const [name, value] of Object.entries({
      client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      state: "screens",
      resource: `${app}/v1/mcp`,
    }))
      url.searchParams.set(name, value);
    authorizeUrl = url.href;
  });
  afterAll(async () => {
    await d?.close();
    callback?.server.close();
    if (!process.env.SITEWRIGHT_SCREENSHOT_DIR) rmSync(dir, { recursive: true, force: true });
  });

  const signedInContext = (width: number, height: number, javaScriptEnabled = true) =>
    d.signIn("olivia@example.test", { width, height }, { javaScriptEnabled });

  /** Asserts no horizontal overflow and the visibility of `visible`, then saves a full-page PNG. */
  async function check(page: Page, shot: string, visible: string[]) {
    expect(await overflows(page), `${shot} is wider than the window`).toBe(false);
    for (const selector of visible) {
      expect(await page.locator(selector).first().isVisible(), `${shot}: ${selector}`).toBe(true);
    }
    const path = join(dir, `${shot}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(statSync(path).size).toBeGreaterThan(5_000);
  }

  for (const { name, width, height } of widths) {
    it(`the websites list and the website page fit a ${width} px window (${name})`, async () => {
      const { context, page } = await signedInContext(width, height);
      const site = websites[0]!;
      await page.goto(`${app}${base}/websites`);
      await check(page, `${name}-websites`, [
        `a:has-text("${site.name}")`,
        'a[href^="http://harbor-cafe"]',
        'button:has-text("Create website")',
      ]);
      // Only the published website links a live site.
      expect(await page.locator('a[href^="http://studio-notes"]').count()).toBe(0);

      const websitePage = `${app}${base}/websites/${site.id}`;
      await page.goto(websitePage);
      await check(page, `${name}-website-overview`, [
        "h1",
        'nav.tabs a:has-text("Overview")',
        'nav.tabs a:has-text("Editors")',
        '[data-testid="preview-draft"]',
        'button:has-text("Publish draft")',
      ]);
      await page.goto(`${websitePage}/deployments`);
      await check(page, `${name}-website-deployments`, ['nav.tabs a[aria-current="page"]', "text=Live"]);
      await page.goto(`${websitePage}/cms`);
      await page.click('a:has-text("Blog")');
      await page.click('tbody a:has-text("Edit")');
      await check(page, `${name}-website-cms-item`, [
        'input[name="v.title"]',
        'textarea[name="v.excerpt"]',
        'button:has-text("Save draft")',
      ]);
      await page.goto(`${websitePage}/source/file?path=${encodeURIComponent("pages/index.tsx")}`);
      await check(page, `${name}-website-source-file`, ['[data-testid="source-content"]']);
      await context.close();
    });

    it(`the consent page fits a ${width} px window, names the client and the loopback host once, and shows website boxes only for "Only the websites I check" (${name})`, async () => {
      const { context, page } = await signedInContext(width, height);
      await page.goto(authorizeUrl);
      await check(page, `${name}-consent`, [
        `h1:has-text("${CLIENT_NAME}")`,
        'button:has-text("Allow access")',
        'button:has-text("Deny")',
      ]);
      const text = (await page.locator("main").innerText()).replace(/\s+/g, " ");
      expect(text).not.toMatch(/Connect Connect/);
      expect(text.split(CLIENT_NAME).length - 1).toBe(1);
      expect(text.split(callback.host).length - 1).toBe(1);

      const box = (id: string) => page.locator(`input[name="website_ids"][value="${id}"]`);
      expect(await box(websites[0]!.id).isVisible()).toBe(false);
      expect(await box(websites[0]!.id).isDisabled()).toBe(true);
      await page.check('input[name="websites"][value="some"]');
      expect(await box(websites[0]!.id).isVisible()).toBe(true);
      expect(await box(websites[0]!.id).isEnabled()).toBe(true);
      expect(await page.locator(`fieldset[data-organization="${otherOrganization}"]`).isVisible()).toBe(
        false,
      );
      await page.check(`input[name="organization_id"][value="${otherOrganization}"]`);
      expect(await box(websites[0]!.id).isVisible()).toBe(false);
      expect(await page.locator(`fieldset[data-organization="${otherOrganization}"]`).isVisible()).toBe(true);
      expect(await overflows(page)).toBe(false);
      await page.screenshot({ path: join(dir, `${name}-consent-some-websites.png`), fullPage: true });
      await context.close();
    });
  }

  it("without JavaScript, the consent hides website boxes under All websites and grants all websites when it is chosen", async () => {
    const { context, page } = await signedInContext(390, 844, false);
    await page.goto(authorizeUrl);
    const box = page.locator(`input[name="website_ids"][value="${websites[1]!.id}"]`);
    expect(await box.isVisible()).toBe(false);
    await page.check('input[name="websites"][value="some"]');
    expect(await box.isVisible()).toBe(true);
    await box.check();
    // Back to all websites: the checked box is hidden again, and the server grants every website.
    await page.check('input[name="websites"][value="all"]');
    expect(await box.isVisible()).toBe(false);
    await Promise.all([
      page.waitForURL((url) => url.host === callback.host),
      page.click('button[value="allow"]'),
    ]);
    expect(new URL(page.url()).searchParams.get("code")).toBeTruthy();
    const [connected] = await listConnectedClients(d.t.platform, userId);
    expect(connected).toMatchObject({ clientName: CLIENT_NAME, websites: null });
    await context.close();
  });
});
