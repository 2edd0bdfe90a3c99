import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isSupportedNode } from "../../scripts/node-version.mjs";
import { root } from "../support/run.ts";

/** The machine's own Node.js, older than the one Sitewright needs (Debian's is 20). */
const oldNode = ["/usr/bin/node", "/usr/local/bin/node"].find(
  (path) => existsSync(path) && !isSupportedNode(versionOf(path)),
);
function versionOf(node: string): string {
  return spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
}
const needed = (
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } }
).engines.node.replace(">=", "");
const dir = mkdtempSync(join(tmpdir(), "sitewright-old-node-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `args` with the old Node.js first on PATH (so `node` and `npm` scripts get it too). */
function withOldNode(command: string, args: string[], env: Record<string, string> = {}) {
  if (!oldNode)
    throw new Error("No Node.js older than the supported one at /usr/bin/node or /usr/local/bin/node.");
  return spawnSync(command === "node" ? oldNode : command, args, {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, PATH: `${dirname(oldNode)}:${process.env.PATH}`, ...env },
    timeout: 120_000,
  });
}

/** The message: the version needed, the one running, and how to get a supported one. */
function expectAdvice(result: ReturnType<typeof spawnSync>, rerun: string) {
  const output = `${result.stdout}${result.stderr}`;
  expect(result.signal, output).toBeNull();
  expect(result.status, output).toBe(1);
  expect(output).not.toMatch(/Segmentation fault/i);
  expect(output).toContain(
    `Sitewright needs Node.js ${needed} or newer; this is Node.js ${versionOf(oldNode!)}`,
  );
  expect(output).toContain(`  ${rerun}\n`);
  expect(output).toContain("nvm install 24");
  expect(output).toContain("fnm use --install-if-missing 24");
  expect(output).toContain("volta install node@24");
}

describe("on a Node.js older than the supported one", { timeout: 180_000 }, () => {
  it("the CLI exits 1 with what Node.js it needs and how to get it, before loading the SQLite driver", () => {
    const data = join(dir, "data");
    const result = withOldNode("node", [
      "bin/sitewright.js",
      "keys",
      "create",
      "--role",
      "admin",
      "--data-dir",
      data,
    ]);
    expectAdvice(result, `npx -y node@24 bin/sitewright.js keys create --role admin --data-dir ${data}`);
    expect(existsSync(data)).toBe(false);
  });

  it("npm start stops at its install step with the same advice, and starts nothing", () => {
    const result = withOldNode("npm", ["start", "--", "--port", "0", "--data-dir", join(dir, "start")]);
    expectAdvice(result, "npx -y -p node@24 npm start");
    expect(result.stdout).not.toContain("Sitewright is running");
    expect(existsSync(join(dir, "start"))).toBe(false);
  });

  it("the install step of npm test gives the same advice", () => {
    const result = withOldNode("node", ["scripts/ensure-install.mjs"], { npm_lifecycle_event: "pretest" });
    expectAdvice(result, "npx -y -p node@24 npm test");
  });

  it("the test setup stops before any test runs, with the same advice", () => {
    const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
    const result = withOldNode("node", [
      vitest,
      "run",
      "--project",
      "unit",
      "test/unit/framework/starter.test.ts",
    ]);
    expectAdvice(result, "npx -y -p node@24 npm test");
    expect(result.stdout).not.toMatch(/Test Files/);
  });
});
