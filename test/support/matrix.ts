import { afterAll, beforeAll, describe } from "vitest";
import type { PlatformConfig } from "../../src/kernel/platform.ts";
import { type Listening, listen } from "../../src/server.ts";
import { type Dialect, dialects } from "./databases.ts";
import { createTestPlatform, type TestPlatform } from "./platform.ts";

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface MatrixContext {
  dialect: Dialect;
  mode: "in-process" | "server";
  /** The test platform (available inside tests and hooks, not at collection time). */
  readonly t: TestPlatform;
  /** The fetch function of this mode: `app.fetch` in-process, or `fetch` against a real server on port 0. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** A JSON API request under `/v1` with the admin key unless `key` is given (null sends none). */
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Base URL of the mode (a real loopback URL in server mode, http://localhost in-process). */
  readonly origin: string;
}

export interface MatrixOptions {
  config?: Partial<PlatformConfig>;
  now?: () => number;
  /** Run the real-server mode too (default true): the same cases once over a real socket. */
  server?: boolean;
  /** Restrict to dialects (default: all available). */
  dialects?: Dialect[];
}

/**
 * Runs `cases` for each available database and each mode: in-process (`app.fetch(new Request(...))`) first,
 * then once against a real HTTP server on an ephemeral loopback port, as h3's describeMatrix does.
 */
export function describeMatrix(
  name: string,
  cases: (ctx: MatrixContext) => void,
  options: MatrixOptions = {},
): void {
  const modes: MatrixContext["mode"][] = options.server === false ? ["in-process"] : ["in-process", "server"];
  for (const dialect of dialects.filter((d) => !options.dialects || options.dialects.includes(d.name))) {
    for (const mode of modes) {
      describe.skipIf(!dialect.available)(`${name} [${dialect.name}, ${mode}]`, () => {
        let platform: TestPlatform | undefined;
        let server: Listening | undefined;
        const ctx: MatrixContext = {
          dialect: dialect.name,
          mode,
          get t() {
            if (!platform) throw new Error("the test platform exists only inside tests and hooks");
            return platform;
          },
          get origin() {
            return server?.url ?? "http://localhost";
          },
          fetch(path, init) {
            if (server) return fetch(`${server.url}${path}`, init);
            return Promise.resolve(platform!.app.fetch(new Request(`http://localhost${path}`, init)));
          },
          async request(method, path, opts = {}) {
            const headers: Record<string, string> = { ...opts.headers };
            const key = opts.key === undefined ? platform!.adminKey.plaintextKey : opts.key;
            if (key !== null) headers.authorization = `Bearer ${key}`;
            let body: string | undefined;
            if (opts.body !== undefined) {
              body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
              headers["content-type"] ??= "application/json";
            }
            const response = await ctx.fetch(`/v1${path}`, { method, headers, body });
            const text = await response.text();
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            return { status: response.status, headers: response.headers, body: parsed };
          },
        };
        beforeAll(async () => {
          platform = await createTestPlatform(dialect.name, {
            ...(options.config ? { config: options.config } : {}),
            ...(options.now ? { now: options.now } : {}),
          });
          if (mode === "server") server = await listen(platform.app, 0);
        });
        afterAll(async () => {
          await server?.close();
          await platform?.close();
        });
        cases(ctx);
      });
    }
  }
}
