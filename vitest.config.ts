import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/global-setup.ts"],
    // Password hashing at scrypt N = 2^10 in tests (production: 2^15); hashes record their cost.
    env: { SITEWRIGHT_SCRYPT_LOG2N: "10" },
  },
});
