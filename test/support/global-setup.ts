import pg from "pg";
import type { TestProject } from "vitest/node";
import { exitUnlessSupportedNode, RECOMMENDED_NODE_MAJOR } from "../../scripts/node-version.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string | null;
  }
}

/** The PostgreSQL server tests create their databases on (trust auth). */
export const PG_ADMIN_URL = process.env.SITEWRIGHT_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Probes PostgreSQL once. Without it, PostgreSQL suites skip locally; under CI=true an unreachable
 * PostgreSQL fails the run instead.
 */
export default async function setup(project: TestProject) {
  // Before any test loads the SQLite driver, which crashes older Node.js versions.
  exitUnlessSupportedNode(`npx -y -p node@${RECOMMENDED_NODE_MAJOR} npm test`);
  if (process.env.CI === "true" && process.env.SITEWRIGHT_TEST_DIALECTS) {
    throw new Error("SITEWRIGHT_TEST_DIALECTS narrows a local run; CI runs every dialect.");
  }
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    project.provide("pgUrl", PG_ADMIN_URL);
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(
        `PostgreSQL at ${PG_ADMIN_URL} is unreachable, and CI requires it: ${(error as Error).message}`,
      );
    }
    console.warn(`PostgreSQL unreachable at ${PG_ADMIN_URL}: PostgreSQL suites are skipped on this machine.`);
    project.provide("pgUrl", null);
  } finally {
    await client.end().catch(() => undefined);
  }
}
