import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { type Started, startUntil } from "../support/processes.ts";
import { root } from "../support/run.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "sitewright-fresh-clone-"));
let server: Started | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The command lines of the README's setup block, comments removed. */
function readmeSetupCommands(): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Setup"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter(Boolean);
}

// A clone has only what is committed: commit before running this test.
describe("a fresh clone, set up as the README says", { timeout: 900_000 }, () => {
  it("the README's first command installs what it needs and serves /v1/openapi.json", async () => {
    const commands = readmeSetupCommands();
    expect(commands).toStrictEqual(["npm start", "npm test"]);
    const clone = join(dir, "sitewright");
    await run("git", ["clone", "--quiet", root, clone]);
    expect(existsSync(join(clone, "node_modules"))).toBe(false);

    // As printed, with PORT=0 so it takes any free port, and without a database URL of the test run.
    const { DATABASE_URL: _, ...env } = process.env;
    server = await startUntil("sh", ["-c", commands[0]!], {
      cwd: clone,
      env: { ...env, PORT: "0" },
      ready: /OpenAPI {4}http:\/\/localhost:\d+\/v1\/openapi\.json\n/,
      timeoutMs: 840_000,
    });
    const output = server.output();
    expect(output).toContain("Installing dependencies with npm ci (node_modules is missing).");
    const url = /OpenAPI {4}(http:\/\/localhost:\d+\/v1\/openapi\.json)/.exec(output)![1]!;
    const res = await fetch(url.replace("localhost", "127.0.0.1"));
    expect(res.status).toBe(200);
    const document = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/websites");
    await server.stop();
    server = undefined;
  });
});
