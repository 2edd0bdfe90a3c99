import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeFunctionPool } from "../../src/framework/functions/pool.ts";
import { newId } from "../../src/kernel/ids.ts";
import { hasChromium } from "../support/browser.ts";
import { overflows, submitAndSee, useDashboardWebsite } from "../support/dashboard.ts";

const SECRET = "sk_dashboard_7d1e9c";

// Debian's chromium (never a downloaded browser build).
describe.skipIf(!hasChromium)("the website's functions and secrets sections in headless Chromium", () => {
  // Registered first, so it runs last: after the dashboard has closed.
  afterAll(() => closeFunctionPool());
  const site = useDashboardWebsite({
    owner: { email: "ivy@example.test", name: "Ivy" },
    website: "Ivy Quotes",
  });
  beforeAll(async () => {
    const { d, ownerId, websiteId } = site;
    const { leaseId } = await d.t.callAsUser(ownerId, "websiteSourceCode.lease.acquire", { websiteId });
    await d.t.callAsUser(ownerId, "websiteSourceCode.files.writeMany", {
      websiteId,
      leaseId,
      files: [
        {
          path: "functions/hello.ts",
          content: `export function http(_req, { env, log }) {\n  log("key is", env.API_KEY);\n  return new Response("hi");\n}`,
        },
        {
          path: "functions/boom.ts",
          content:
            "export function http() {\n  const data = null as any;\n  return new Response(data.field);\n}",
        },
      ],
    });
  });

  it("secrets are set and deleted through forms and never shown; runs show status, duration, logs, error location and filter", async () => {
    const { d, ownerId, websiteId, websitePath } = site;
    const { context, page } = await d.signIn("ivy@example.test");
    await page.goto(websitePath);
    await page.click('nav.tabs a:has-text("Secrets")');
    await page.waitForSelector("text=No secrets");

    // Set a secret through the form; the list shows its name and times, never the value.
    await page.fill("#f-name", "API_KEY");
    await page.fill("#f-value", SECRET);
    await submitAndSee(page, 'button:has-text("Set secret")', "Secret set.");
    expect(await page.locator('[data-testid="secret"]').allInnerTexts()).toEqual(["API_KEY"]);
    expect(await page.content()).not.toContain(SECRET);
    expect(await page.inputValue("#f-value")).toBe("");
    // A bad name is refused with the error body's message, and nothing is stored.
    await page.fill("#f-name", "bad name");
    await page.fill("#f-value", "x");
    await page.click('button:has-text("Set secret")');
    await page.waitForSelector(".flash.error");
    expect(await page.innerText(".flash.error")).toContain("name");
    expect(await page.inputValue("#f-name")).toBe("bad name");
    expect((await d.t.callAsUser(ownerId, "secrets.list", { websiteId })).items.map((s) => s.name)).toEqual([
      "API_KEY",
    ]);

    // Runs: one that logs the secret (redacted), one that throws.
    await d.t.callAsUser(ownerId, "functions.invoke", { websiteId, name: "hello" });
    await d.t.callAsUser(ownerId, "functions.invoke", { websiteId, name: "boom" });
    await page.click('nav.tabs a:has-text("Functions")');
    await page.waitForSelector('h2:has-text("Runs")');
    expect(await page.locator('[data-testid="run"]').allInnerTexts()).toEqual(["boom", "hello"]);
    expect(await page.locator('[data-testid="run-status"]').allInnerTexts()).toEqual(["500", "200"]);
    expect(await page.locator('[data-testid="run-duration"]').first().innerText()).toMatch(/^\d+ ms$/);
    expect(await page.locator('[data-testid="run-error-at"]').innerText()).toMatch(
      /^functions\/boom\.ts:3:\d+$/,
    );
    expect(await page.locator('[data-testid="run-logs"]').textContent()).toBe("key is [secret API_KEY]");
    expect(await page.content()).not.toContain(SECRET);

    // Filters by status and by function.
    await page.fill("#f-status", "500");
    await Promise.all([page.waitForURL(/status=500/), page.click('button:has-text("Filter")')]);
    expect(await page.locator('[data-testid="run"]').allInnerTexts()).toEqual(["boom"]);
    await page.fill("#f-status", "");
    await page.fill("#f-function", "hello");
    await Promise.all([page.waitForURL(/function=hello/), page.click('button:has-text("Filter")')]);
    expect(await page.locator('[data-testid="run"]').allInnerTexts()).toEqual(["hello"]);

    // Filters by days (the `to` day included): a live run of three days ago, alone in its day.
    const old = Date.now() - 3 * 86_400_000;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    await d.t.platform.db.transaction((s) =>
      s.functionRuns.insert({
        id: newId(),
        websiteId,
        functionName: "archived",
        trigger: "live",
        status: 204,
        durationMs: 3,
        logs: [],
        droppedLogs: 0,
        error: null,
        createdAt: old,
      }),
    );
    await page.fill("#f-function", "");
    await page.fill("#f-from", day(old));
    await page.fill("#f-to", day(old));
    await Promise.all([page.waitForURL(/to=\d{4}-/), page.click('button:has-text("Filter")')]);
    expect(await page.locator('[data-testid="run"]').allInnerTexts()).toEqual(["archived"]);
    expect(await page.inputValue("#f-to")).toBe(day(old));
    await page.fill("#f-from", day(Date.now() + 86_400_000));
    await page.fill("#f-to", "");
    await Promise.all([page.waitForURL(/from=/), page.click('button:has-text("Filter")')]);
    await page.waitForSelector("text=No run matches the filter.");
    await page.fill("#f-from", day(old + 86_400_000));
    await Promise.all([page.waitForURL(/from=/), page.click('button:has-text("Filter")')]);
    expect(await page.locator('[data-testid="run"]').allInnerTexts()).toEqual(["boom", "hello"]);

    // Delete the secret.
    await page.click('nav.tabs a:has-text("Secrets")');
    await submitAndSee(page, 'button:has-text("Delete")', "Secret deleted.");
    await page.waitForSelector("text=No secrets");
    expect((await d.t.callAsUser(ownerId, "secrets.list", { websiteId })).items).toEqual([]);
    await context.close();
  });

  it("a content editor sees runs and secret names but no set or delete; another organization gets 404", async () => {
    const { d, ownerId, organizationId, websiteId, websitePath } = site;
    await d.t.callAsUser(ownerId, "secrets.set", { websiteId, name: "MAILER_KEY", value: SECRET });
    await d.user("moss@example.test", "Moss", { organizationId, role: "content_editor" });
    const { context, page } = await d.signIn("moss@example.test");
    await page.goto(`${websitePath}/secrets`);
    expect(await page.locator('[data-testid="secret"]').allInnerTexts()).toEqual(["MAILER_KEY"]);
    expect(await page.locator('[data-testid="secret-form"]').count()).toBe(0);
    expect(await page.locator('button:has-text("Delete")').count()).toBe(0);
    expect(await page.content()).not.toContain(SECRET);
    await page.goto(`${websitePath}/functions`);
    expect(await page.locator('[data-testid="run"]').count()).toBeGreaterThan(0);
    await context.close();

    await d.user("rook@example.test", "Rook");
    const outsider = await d.signIn("rook@example.test");
    const response = await outsider.page.goto(`${websitePath}/secrets`);
    expect(response?.status()).toBe(404);
    expect(await outsider.page.content()).not.toContain("MAILER_KEY");
    await outsider.context.close();
  });

  it("both sections fit a 390 px window", async () => {
    const { d, websitePath } = site;
    const { context, page } = await d.signIn("ivy@example.test", { width: 390, height: 844 });
    for (const section of ["functions", "secrets"]) {
      await page.goto(`${websitePath}/${section}`);
      expect(await overflows(page), section).toBe(false);
    }
    await context.close();
  });
});
