import { afterAll, beforeAll } from "vitest";
import type { PlatformConfig } from "../../src/kernel/platform.ts";
import { type ServedPlatform, servePlatform } from "./dashboard.ts";
import { type Run, run } from "./run.ts";

/** The platform the example scripts of one test file run against, and the way to run them. */
export interface ExampleServer {
  /** The served platform (set once the file's `beforeAll` has run). */
  readonly served: ServedPlatform;
  /**
   * Runs `examples/<script>` with node and tsx to completion: `SITEWRIGHT_URL` is the platform's MCP URL (or its
   * REST base with `api: "rest"`), `SITEWRIGHT_API_KEY` its admin key; `env` adds or overrides variables.
   */
  run(script: string, options?: { api?: "rest" | "mcp"; env?: Record<string, string> }): Promise<Run>;
}

/**
 * Registers the file's `beforeAll`/`afterAll`: a SQLite platform served on a free port with `config` (a function
 * when it depends on what an earlier `beforeAll` started), closed with its build sandboxes after the tests.
 */
export function useExampleServer(
  config: Partial<PlatformConfig> | (() => Partial<PlatformConfig>) = {},
): ExampleServer {
  let served: ServedPlatform | undefined;
  beforeAll(async () => {
    served = await servePlatform(typeof config === "function" ? config() : config);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
  });
  const current = () => {
    if (!served)
      throw new Error("useExampleServer: the platform is not served yet (call it at the top level)");
    return served;
  };
  return {
    get served() {
      return current();
    },
    run(script, { api = "mcp", env = {} } = {}) {
      const { server, t } = current();
      return run(process.execPath, ["--import", "tsx", `examples/${script}`], {
        SITEWRIGHT_URL: `${server.url}/v1${api === "mcp" ? "/mcp" : ""}`,
        SITEWRIGHT_API_KEY: t.adminKey.plaintextKey,
        ...env,
      });
    },
  };
}
