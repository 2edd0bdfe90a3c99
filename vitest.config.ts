import { defineConfig } from "vitest/config";

/**
 * One project per kind of test, so a change can be checked at the speed it needs:
 * `unit` (pure logic), `stores` (store conformance on SQLite and PostgreSQL), `api` (operations over REST, MCP
 * and the dashboard, in-process then on a real server), `browser` (Chromium), `e2e` (spawned CLI processes,
 * example scripts, crash tests). `npm test` runs them all.
 */
const project = (name: string) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...(SLOW.includes(name) ? SLOW_LIMITS : {}) },
});

/**
 * Tests that launch Chromium or spawn processes take seconds on a quiet machine and 5–8 times as long on a loaded
 * CI machine: their limits leave room for that (a test may still set its own, longer limit).
 */
const SLOW = ["browser", "e2e"];
const SLOW_LIMITS = { testTimeout: 180_000, hookTimeout: 180_000 };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    // Password hashing at scrypt N = 2^10 in tests (production: 2^15); hashes record their cost.
    env: { SITEWRIGHT_SCRYPT_LOG2N: "10" },
    projects: ["unit", "stores", "api", "browser", "e2e"].map(project),
  },
});
