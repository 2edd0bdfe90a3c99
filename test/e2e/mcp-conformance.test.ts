import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, type CliServer, cliEnv, startDev } from "../support/cli-server.ts";
import { root, run } from "../support/run.ts";

/** The suite's CLI from node_modules, run with node itself: nothing is downloaded. */
const conformanceCli = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/conformance/dist/index.js",
);
const baseline = join(root, "test", "e2e", "mcp-conformance-baseline.yml");
const preload = join(root, "test", "support", "conformance-auth.mjs");

/** The scenarios that apply to Sitewright: each must pass. */
const applicable = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "resources-list",
  "prompts-list",
  "dns-rebinding-protection",
];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

describe("MCP conformance suite, server scenarios, against sitewright dev with an API key", {
  timeout: 300_000,
}, () => {
  let dev: CliServer;
  let out: string;
  let result: Awaited<ReturnType<typeof run>>;
  const checks = new Map<string, Check[]>();

  beforeAll(async () => {
    dev = await startDev();
    const created = await promisify(execFile)(
      process.execPath,
      [
        bin,
        "keys",
        "create",
        "--role",
        "admin",
        "--name",
        "conformance",
        "--data-dir",
        dev.dataDir,
        "--json",
      ],
      { env: cliEnv() },
    );
    const key = JSON.parse(created.stdout).plaintextKey as string;
    out = mkdtempSync(join(tmpdir(), "sitewright-conformance-"));
    result = await run(
      process.execPath,
      [
        "--import",
        preload,
        conformanceCli,
        "server",
        "--url",
        `${dev.origin}/v1/mcp`,
        "--suite",
        "all",
        "--expected-failures",
        baseline,
        "-o",
        out,
      ],
      { CONFORMANCE_BEARER: key, CONFORMANCE_TARGET_PORT: new URL(dev.origin).port },
    );
    for (const dir of readdirSync(out)) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)![1]!;
      checks.set(scenario, JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")));
    }
  }, 240_000);

  afterAll(async () => {
    await dev?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("exits 0: every scenario passes except those the baseline lists as not applying, and none of those passes", () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).not.toContain("Unexpected failures");
    expect(result.stdout).not.toContain("Baseline is stale");
  });

  it("runs and passes every scenario that applies to this server", () => {
    for (const scenario of applicable) {
      const found = checks.get(scenario);
      expect(found, scenario).toBeDefined();
      expect(
        found!.filter((c) => c.status === "FAILURE"),
        scenario,
      ).toEqual([]);
    }
    const rebinding = checks.get("dns-rebinding-protection")!;
    expect(rebinding.map((c) => [c.id, c.status])).toEqual([
      ["localhost-host-rebinding-rejected", "SUCCESS"],
      ["localhost-host-valid-accepted", "SUCCESS"],
    ]);
  });

  it("fails the scenarios that do not apply only with the protocol's refusals (unknown fixture tool, prompt or resource; no subscriptions; no session streams)", () => {
    const listed = readFileSync(baseline, "utf8")
      .split("\n")
      .map((line) => /^\s+- ([\w-]+)$/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(listed.length).toBeGreaterThan(10);
    expect([...checks.keys()].sort()).toEqual([...applicable, ...listed].sort());
    for (const scenario of listed) {
      const found = checks.get(scenario)!;
      const failures = found.filter((c) => c.status === "FAILURE");
      for (const failure of failures) {
        expect(failure.errorMessage, scenario).toMatch(/MCP error -3260[12]|Tool '\w+' not found/);
      }
      if (failures.length === 0) {
        expect(scenario).toMatch(/^server-sse-/);
        expect(
          found.some((c) => c.status === "WARNING"),
          scenario,
        ).toBe(true);
      }
    }
  });
});
