import { afterAll, expect, it } from "vitest";
import { ApiError } from "../../src/kernel/errors.ts";
import { defaultResearchConfig } from "../../src/services/research/config.ts";
import { BrowserPool } from "../../src/services/research/pool.ts";

const pools: BrowserPool[] = [];
const poolWith = (overrides: Partial<ReturnType<typeof defaultResearchConfig>>) => {
  const pool = new BrowserPool({ ...defaultResearchConfig(), ...overrides });
  pools.push(pool);
  return pool;
};
afterAll(async () => {
  for (const pool of pools) await pool.close();
});

/** What started after a1 and a2 (which start together, in either order). */
const after = (started: string[]) => {
  expect(started.slice(0, 2).sort()).toEqual(["a1", "a2"]);
  return started.slice(2);
};

/** A job that holds its page until released, recording when it started. */
function job(pool: BrowserPool, organization: string, name: string, started: string[]) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let begun!: () => void;
  const running = new Promise<void>((resolve) => {
    begun = resolve;
  });
  const done = pool.withContext(organization, async (context) => {
    const page = await context.newPage();
    await page.setContent(`<p>${name}</p>`);
    started.push(name);
    begun();
    await held;
  });
  return { release, running, done };
}

it("caps pages per organization and hands a freed page to the least busy organization first", async () => {
  const pool = poolWith({ maxPages: 3, maxPagesPerOrganization: 2 });
  const started: string[] = [];
  const a1 = job(pool, "org-a", "a1", started);
  const a2 = job(pool, "org-a", "a2", started);
  await Promise.all([a1.running, a2.running]);
  const a3 = job(pool, "org-a", "a3", started); // over org-a's cap: waits although a page is free
  const b1 = job(pool, "org-b", "b1", started);
  await b1.running;
  expect(after(started)).toEqual(["b1"]);
  const b2 = job(pool, "org-b", "b2", started); // the node is full (3): waits behind a3
  a1.release();
  await a1.done;
  // Both organizations now have one page open: the tie goes to the oldest waiter, a3.
  await a3.running;
  expect(after(started)).toEqual(["b1", "a3"]);
  a2.release();
  await b2.running;
  expect(after(started)).toEqual(["b1", "a3", "b2"]);
  for (const j of [a3, b1, b2]) j.release();
  await Promise.all([a2.done, a3.done, b1.done, b2.done]);
});

it("prefers the organization with fewer pages open over an older waiter of a busier one", async () => {
  const pool = poolWith({ maxPages: 2, maxPagesPerOrganization: 2 });
  const started: string[] = [];
  const a1 = job(pool, "org-a", "a1", started);
  const a2 = job(pool, "org-a", "a2", started);
  await Promise.all([a1.running, a2.running]);
  const a3 = job(pool, "org-a", "a3", started);
  const b1 = job(pool, "org-b", "b1", started);
  a1.release();
  await b1.running; // org-b has none open, org-a still one: b1 goes first although a3 waited longer
  expect(after(started)).toEqual(["b1"]);
  a2.release();
  await a3.running;
  for (const j of [a3, b1]) j.release();
  await Promise.all([a1.done, a2.done, a3.done, b1.done]);
});

it("refuses a call that waited too long for a page, and explains a missing Chromium", async () => {
  const pool = poolWith({ maxPages: 1, queueTimeoutMs: 300 });
  const started: string[] = [];
  const a1 = job(pool, "org-a", "a1", started);
  await a1.running;
  const waited = await pool.withContext("org-b", async () => "never").catch((error: unknown) => error);
  expect(waited).toBeInstanceOf(ApiError);
  expect((waited as ApiError).kind).toBe("rate_limited");
  a1.release();
  await a1.done;

  const missing = poolWith({ chromiumPath: "/nonexistent/chromium" });
  const error = (await missing
    .withContext("org-a", async () => "never")
    .catch((e: unknown) => e)) as ApiError;
  expect(error.kind).toBe("internal");
  expect(error.message).toContain("/nonexistent/chromium");
  expect(error.options.suggestion).toContain("SITEWRIGHT_CHROMIUM_PATH");
});
