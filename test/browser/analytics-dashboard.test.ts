import { beforeAll, describe, expect, it } from "vitest";
import { freeAccount } from "../../src/services/billing/account.ts";
import { roomInUtcDay } from "../support/analytics.ts";
import { hasChromium } from "../support/browser.ts";
import { overflows, useDashboardWebsite } from "../support/dashboard.ts";

const DAY = 86_400_000;
const DESKTOP =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

// Debian's chromium (never a downloaded browser build).
describe.skipIf(!hasChromium)("the website's analytics section in headless Chromium", () => {
  const site = useDashboardWebsite({
    owner: { email: "ada@example.test", name: "Ada" },
    website: "Ada Atlas",
  });
  beforeAll(async () => {
    const { d, websiteId, slug } = site;
    // Seeded through the collector (as hosting records page views), with normal browsers' user agents:
    // today 3 visitors (2 on desktop from Google, 1 on a phone direct), 2 days ago 1 more; 7 page views in all.
    // Today's hits (the last 30 s) and the reports of today (within two minutes) in one UTC day.
    const now = await roomInUtcDay(30_000, 120_000);
    const hit = (ts: number, ip: string, pathname: string, userAgent: string, referer: string | null) =>
      d.t.platform.analytics.record({
        websiteId,
        host: `${slug}.localhost`,
        name: "pageview",
        ts,
        pathname,
        search: "",
        ip,
        userAgent,
        referer,
      });
    const today = now - 1_000;
    hit(today - 25_000, "203.0.113.1", "/", DESKTOP, "https://www.google.com/");
    hit(today - 20_000, "203.0.113.1", "/pricing/", DESKTOP, null);
    hit(today - 15_000, "203.0.113.2", "/", DESKTOP, "https://www.google.com/");
    hit(today - 10_000, "203.0.113.2", "/pricing/", DESKTOP, null);
    hit(today - 5_000, "203.0.113.2", "/about/", DESKTOP, null);
    hit(today - 1_000, "203.0.113.3", "/", PHONE, null);
    hit(now - 2 * DAY, "203.0.113.4", "/", PHONE, null);
    await d.t.platform.analytics.flush();
  });

  it("without analytics_view the section says so and names the billing operation", async () => {
    const { d, websitePath } = site;
    const { context, page } = await d.signIn("ada@example.test");
    await page.goto(`${websitePath}/analytics`);
    const alert = await page.locator('[role="alert"]').innerText();
    expect(alert).toContain("analytics_view");
    expect(alert).toMatch(/billing\./);
    await context.close();
  });

  it("draws the chart and the top lists for the chosen period, at desktop and phone widths", async () => {
    const { d, organizationId, websitePath } = site;
    await d.t.platform.db.transaction((s) =>
      s.billing.putAccount({
        ...freeAccount(organizationId, Date.now()),
        status: "active",
        plan: "pro",
        interval: "monthly",
      }),
    );
    const { context, page } = await d.signIn("ada@example.test");
    await page.goto(websitePath);
    await page.click('nav.tabs a:has-text("Analytics")');
    await page.click('a:has-text("Last 7 days")');
    await page.waitForURL(/period=7d/);
    expect(await page.locator('[data-testid="metric-visitors"] .value').innerText()).toBe("4");
    expect(await page.locator('[data-testid="metric-pageviews"] .value').innerText()).toBe("7");

    const buckets = page.locator('svg[data-testid="chart"] [data-testid="bucket"]');
    expect(await buckets.count()).toBe(7);
    const data = await buckets.evaluateAll((rects) =>
      rects.map((r) => ({
        visitors: Number(r.getAttribute("data-visitors")),
        views: Number(r.getAttribute("data-pageviews")),
      })),
    );
    expect(data.at(-1)).toEqual({ visitors: 3, views: 6 });
    expect(data.at(-3)).toEqual({ visitors: 1, views: 1 });
    expect(data.reduce((sum, b) => sum + b.views, 0)).toBe(7);
    expect(await buckets.last().locator("title").textContent()).toContain("3 visitors, 6 page views");
    // The visitors line has one point per bucket; no chart library, no script.
    const points = await page.locator('[data-testid="visitors-line"]').getAttribute("points");
    expect(points!.trim().split(" ")).toHaveLength(7);
    expect(await page.locator("script[src*=chart]").count()).toBe(0);

    const list = (dimension: string) =>
      page.locator(`[data-testid="top-${dimension}"] [data-testid="top-value"]`).allInnerTexts();
    expect(await list("page")).toEqual(["/", "/pricing/", "/about/"]);
    expect(
      await page.locator('[data-testid="top-page"] [data-testid="top-visitors"]').allInnerTexts(),
    ).toEqual(["4", "2", "1"]);
    expect(await list("source")).toEqual(expect.arrayContaining(["Google", "Direct"]));
    expect((await list("device")).sort()).toEqual(["desktop", "mobile"]);
    // No GeoIP database is configured: every visitor is of an unknown country.
    expect(await list("country")).toEqual(["Unknown"]);

    // The 12-month view buckets by month: the current month holds everything.
    await page.click('a:has-text("Last 12 months")');
    await page.waitForURL(/period=12mo/);
    const months = await page
      .locator('[data-testid="bucket"]')
      .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute("data-pageviews"))));
    expect(months.reduce((a, b) => a + b, 0)).toBe(7);
    expect(await overflows(page)).toBe(false);
    await context.close();

    const phone = await d.signIn("ada@example.test", { width: 390, height: 844 });
    await phone.page.goto(`${websitePath}/analytics?period=7d`);
    expect(await overflows(phone.page)).toBe(false);
    expect(await phone.page.locator('svg[data-testid="chart"]').isVisible()).toBe(true);
    expect(await phone.page.locator('[data-testid="top-page"]').isVisible()).toBe(true);
    await phone.context.close();
  });

  it("counts days in the website's time zone and says which zone", async () => {
    const { d, ownerId, websiteId, websitePath } = site;
    await d.t.callAsUser(ownerId, "analytics.settings.update", { websiteId, timeZone: "Pacific/Kiritimati" });
    const { context, page } = await d.signIn("ada@example.test");
    await page.goto(`${websitePath}/analytics?period=7d`);
    expect(await page.locator('[data-testid="time-zone"]').innerText()).toContain("Pacific/Kiritimati");
    // The period ends on today's date at UTC+14, whatever the date is in UTC.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date());
    expect(await page.locator("main").innerText()).toContain(`to ${today} (Pacific/Kiritimati)`);
    const views = await page
      .locator('[data-testid="bucket"]')
      .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute("data-pageviews"))));
    expect(views).toHaveLength(7);
    expect(views.reduce((a, b) => a + b, 0)).toBe(7);
    await context.close();
  });
});
