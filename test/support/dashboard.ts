import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { freePort } from "../../examples/caddy.ts";
import { signUp } from "../../src/accounts/accounts.ts";
import { closeSandboxPool } from "../../src/framework/index.ts";
import type { PlatformConfig } from "../../src/kernel/platform.ts";
import type { Listening } from "../../src/server.ts";
import { launchChromium } from "./browser.ts";
import type { Dialect } from "./databases.ts";
import { listenTestPlatform, type TestPlatform } from "./platform.ts";

/** The password of users made by `Dashboard.user`. */
export const PASSWORD = "a long enough password";

/** A port free on loopback now. */
export { freePort };

/** A platform served on a real port with its dashboard at `app`, and headless Chromium to drive it. */
export interface Dashboard {
  t: TestPlatform;
  server: Listening;
  browser: Browser;
  /** The app's origin, `http://localhost:<port>`. */
  app: string;
  /**
   * Signs up a user with PASSWORD, also a member of `member.organizationId` with `member.role` when given; returns
   * their id and their first organization's id.
   */
  user(
    email: string,
    name: string,
    member?: { organizationId: string; role: string },
  ): Promise<{ id: string; organizationId: string }>;
  /** A new browser context of `width`×`height` (and `options`, e.g. JavaScript off), signed in as `email`. */
  signIn(
    email: string,
    viewport?: { width: number; height: number },
    options?: Omit<BrowserContextOptions, "viewport">,
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** A platform served on a free port (its app and API URLs on that port), closed with `close`. */
export interface ServedPlatform {
  t: TestPlatform;
  server: Listening;
  /** The app's origin, `http://localhost:<port>`; live sites are `http://<slug>.localhost:<port>`. */
  app: string;
  /** Closes the server, the platform and the build sandboxes. */
  close(): Promise<void>;
}

/**
 * The setup browser tests share: a platform on `dialect` (SQLite unless given) on a free port with `config`,
 * served over HTTP (Chromium then reaches the app at `app` and each live site at `<slug>.localhost:<port>`).
 */
export async function servePlatform(
  config: Partial<PlatformConfig> = {},
  dialect: Dialect = "sqlite",
): Promise<ServedPlatform> {
  const served = await listenTestPlatform(dialect, (port) => ({
    config: { appUrl: `http://localhost:${port}`, baseUrl: `http://localhost:${port}/v1`, ...config },
  }));
  return {
    t: served.t,
    server: served.server,
    app: `http://localhost:${served.port}`,
    async close() {
      await served.close();
      await closeSandboxPool();
    },
  };
}

/**
 * Registers, in the enclosing `describe`, `servePlatform(config, dialect)` before all its tests and its close after
 * them; the object returned is filled in before the tests run.
 */
export function useServedPlatform(config: Partial<PlatformConfig> = {}, dialect?: Dialect): ServedPlatform {
  const served = {} as ServedPlatform;
  beforeAll(async () => {
    Object.assign(served, await servePlatform(config, dialect));
  });
  afterAll(() => served.close?.());
  return served;
}

/** Starts `servePlatform(config, dialect)` and Chromium. */
export async function startDashboard(
  config: Partial<PlatformConfig> = {},
  dialect: Dialect = "sqlite",
): Promise<Dashboard> {
  const served = await servePlatform(config, dialect);
  const { t, app } = served;
  const browser = await launchChromium();
  return {
    t,
    server: served.server,
    browser,
    app,
    async user(email, name, member) {
      const user = await signUp(t.platform, { email, password: PASSWORD, name });
      if (member)
        await t.platform.db.transaction((s) =>
          s.organizations.insertMembership({ ...member, userId: user.id, createdAt: Date.now() }),
        );
      const organizationId = (await t.callAsUser(user.id, "organizations.list", {})).items[0]!.id;
      return { id: user.id, organizationId };
    },
    async signIn(email, viewport = { width: 1280, height: 900 }, options = {}) {
      const context = await browser.newContext({ ...options, viewport });
      const page = await context.newPage();
      await page.goto(`${app}/signin`);
      await signInThroughForm(page, email);
      return { context, page };
    },
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

/** The dashboard, owner and website `useDashboardWebsite` sets up; filled in before the enclosing tests run. */
export interface DashboardWebsite {
  d: Dashboard;
  ownerId: string;
  organizationId: string;
  websiteId: string;
  slug: string;
  /** The website's dashboard page, `<app>/orgs/<organizationId>/websites/<websiteId>`. */
  websitePath: string;
}

/**
 * Registers, in the enclosing `describe`, the setup a dashboard test of one website repeats: `startDashboard`
 * (before all its tests, closed after them), an owner signed up as `owner` and the owner's website named `website`.
 */
export function useDashboardWebsite(options: {
  owner: { email: string; name: string };
  website: string;
  dialect?: Dialect;
  config?: Partial<PlatformConfig>;
}): DashboardWebsite {
  const site = {} as DashboardWebsite;
  beforeAll(async () => {
    const d = await startDashboard(options.config, options.dialect);
    site.d = d;
    const owner = await d.user(options.owner.email, options.owner.name);
    const { organizationId } = owner;
    const website = await d.t.callAsUser(owner.id, "websites.create", {
      name: options.website,
      organizationId,
    });
    Object.assign(site, {
      ownerId: owner.id,
      organizationId,
      websiteId: website.id,
      slug: website.slug,
      websitePath: `${d.app}/orgs/${organizationId}/websites/${website.id}`,
    });
  });
  afterAll(() => site.d?.close());
  return site;
}

/** Fills the sign-in form `page` shows with `email` and PASSWORD, submits it, and waits to leave `/signin`. */
export async function signInThroughForm(page: Page, email: string): Promise<void> {
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', PASSWORD);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/signin"),
    page.click('button:has-text("Sign in")'),
  ]);
}

/** Clicks `selector` and waits for `notice` to show (a form post answered by a redirect with a notice). */
export async function submitAndSee(page: Page, selector: string, notice: string): Promise<void> {
  await Promise.all([page.waitForSelector(`text=${notice}`), page.click(selector)]);
}

/** Whether the page is wider than the window (something would be clipped or scroll sideways). */
export const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
