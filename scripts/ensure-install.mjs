#!/usr/bin/env node
// The install step of `npm start` and `npm test` (their pre-scripts), so that each works on a fresh clone: checks the
// Node.js version, then runs `npm ci` when node_modules is missing, older than package-lock.json, or holds a SQLite
// driver that does not load on this Node.js (installed under another version). Otherwise it does nothing.
// @ts-check
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exitUnlessSupportedNode, RECOMMENDED_NODE_MAJOR } from "./node-version.mjs";

const script = (process.env.npm_lifecycle_event ?? "prestart").replace(/^pre/, "");
const npmCommand = script === "start" || script === "test" ? `npm ${script}` : `npm run ${script}`;
exitUnlessSupportedNode(`npx -y -p node@${RECOMMENDED_NODE_MAJOR} ${npmCommand}`);

const root = fileURLToPath(new URL("..", import.meta.url));
const installed = new URL("../node_modules/.package-lock.json", import.meta.url);
const lockfile = new URL("../package-lock.json", import.meta.url);

/** Why the dependencies must be installed, or undefined when they are in place. */
function staleReason() {
  if (!existsSync(installed)) return "node_modules is missing";
  if (statSync(installed).mtimeMs < statSync(lockfile).mtimeMs)
    return "package-lock.json is newer than node_modules";
  if (!sqliteLoads()) return `the SQLite driver was built for another Node.js than ${process.version}`;
  return undefined;
}

/** Whether better-sqlite3 loads and opens a database here (in a child process: a mismatched build may crash). */
function sqliteLoads() {
  const probe = "new (require('better-sqlite3'))(':memory:').close()";
  return spawnSync(process.execPath, ["-e", probe], { cwd: root, stdio: "ignore" }).status === 0;
}

const reason = staleReason();
if (reason) {
  console.log(`Installing dependencies with npm ci (${reason}).`);
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], {
    cwd: root,
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (result.status !== 0) {
    console.error(`npm ci failed (exit ${result.status ?? result.signal}); the output above says why.`);
    process.exit(1);
  }
  if (!sqliteLoads()) {
    console.error(
      `The SQLite driver (better-sqlite3) does not load on Node.js ${process.version} after npm ci.`,
    );
    process.exit(1);
  }
}
