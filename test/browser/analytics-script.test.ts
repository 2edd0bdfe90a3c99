// The optional analytics script in headless Chromium on a live site: the server counts the page view, the script
// adds a custom event with properties, a single-page navigation, an outbound link click and the engagement time,
// all in the same cookieless visit; the owner's opt-out page stops the counting.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuildResult } from "../../src/framework/types.ts";
import type { Listening } from "../../src/server.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { type ServedPlatform, servePlatform } from "../support/dashboard.ts";
import { publishBuild } from "../support/hosting.ts";
import type { TestPlatform } from "../support/platform.ts";

// Headless Chromium names itself HeadlessChrome, which the bot list (rightly) matches: pose as a desktop browser.
const DESKTOP =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><script defer src="/_service/analytics"></script></head><body>${body}</body></html>`;

const site: BuildResult = {
  pages: [
    {
      route: "/",
      path: "index.html",
      source: "pages/index.tsx",
      html: page(
        "Home",
        `<button id="track" onclick="sitewright.track('Signup', { plan: 'pro', seats: 3 })">Sign up</button>
<button id="spa" onclick="history.pushState({}, '', '/spa/')">Go</button>
<a id="out" href="https://example.com/elsewhere" onclick="event.preventDefault()">Elsewhere</a>
<a id="about" href="/about/">About</a>`,
      ),
    },
    {
      route: "/about/",
      path: "about/index.html",
      source: "pages/about.tsx",
      html: page("About", "<h1>About</h1>"),
    },
  ],
  assets: [],
  forms: [],
  functions: [],
  warnings: [],
  sourceHash: "analytics-script-test",
};

describe.skipIf(!hasChromium)("the analytics script in Chromium", () => {
  let served: ServedPlatform;
  let t: TestPlatform;
  let server: Listening;
  let browser: Browser;
  beforeAll(async () => {
    served = await servePlatform();
    ({ t, server } = served);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const eventsOf = async (websiteId: string) => {
    await t.platform.analytics.flush();
    return t.platform.db.read((s) =>
      s.analytics.rawEvents(
        websiteId,
        { from: 0, to: Date.now() + 1000 },
        { limit: 100, pageviewsOnly: false },
      ),
    );
  };
  /** The website's events once there are `count` (or all there are after a minute, for the assertion to show). */
  const until = async (websiteId: string, count: number) => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const rows = await eventsOf(websiteId);
      if (rows.length >= count) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return eventsOf(websiteId);
  };

  it("adds custom events, SPA page views, outbound clicks and engagement to the server's page views", async () => {
    const website = await t.createWebsite("Scripted");
    await publishBuild(t.platform, website.id, site);
    const origin = `http://${website.slug}.localhost:${server.port}`;
    const context = await browser.newContext({ userAgent: DESKTOP });
    const tab = await context.newPage();
    await tab.goto(`${origin}/?utm_source=launch`);
    await tab.waitForFunction(() => typeof (window as { sitewright?: unknown }).sitewright === "object");
    await tab.click("#track");
    await tab.click("#out");
    await tab.waitForTimeout(1200);
    await tab.click("#spa");
    await until(website.id, 4);
    await tab.waitForTimeout(1100);
    // The tab is hidden (switched away from): the time on /spa/ is sent while the page still lives.
    await tab.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await until(website.id, 6);
    await tab.click("#about");
    await tab.waitForURL(`${origin}/about/`);
    const rows = await until(website.id, 7);
    const seen = rows.map((r) => [r.name, r.path]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ["pageview", "/"],
        ["Signup", "/"],
        ["Outbound Link: Click", "/"],
        ["pageview", "/spa/"],
        ["engagement", "/"],
        ["engagement", "/spa/"],
        ["pageview", "/about/"],
      ]),
    );
    expect(rows.find((r) => r.name === "Signup")!.props).toEqual({ plan: "pro", seats: "3" });
    expect(rows.find((r) => r.name === "Outbound Link: Click")!.props).toEqual({
      url: "https://example.com/elsewhere",
    });
    expect(rows.find((r) => r.name === "engagement" && r.path === "/")!.engagementMs).toBeGreaterThanOrEqual(
      1000,
    );
    // One visit, its campaign kept by every event; no cookie was set.
    expect(new Set(rows.map((r) => r.sessionId)).size).toBe(1);
    expect(rows.every((r) => r.utmSource === "launch" && r.source === "launch")).toBe(true);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it("stops counting the owner's browser after the opt-out page, and counts it again after opting back in", async () => {
    const website = await t.createWebsite("Owner opts out");
    await publishBuild(t.platform, website.id, site);
    const origin = `http://${website.slug}.localhost:${server.port}`;
    const context = await browser.newContext({ userAgent: DESKTOP });
    const tab = await context.newPage();
    await tab.goto(`${origin}/_service/analytics/ignore`);
    await tab.goto(`${origin}/about/`);
    await tab.evaluate(() =>
      (window as unknown as { sitewright: { track(n: string): void } }).sitewright.track("Nope"),
    );
    await tab.waitForTimeout(300);
    expect(await eventsOf(website.id)).toEqual([]);
    await tab.goto(`${origin}/_service/analytics/ignore?on=0`);
    await tab.goto(`${origin}/about/`);
    expect((await until(website.id, 1)).map((r) => r.path)).toEqual(["/about/"]);
    await context.close();
  });
});
