// The Node.js version check that runs first: in the CLI (bin/sitewright.js), in the install step of `npm start` and
// `npm test` (scripts/ensure-install.mjs) and in the test setup. It must run before anything native loads: on an
// older Node.js the SQLite driver (better-sqlite3) dies with a bare "Segmentation fault". Plain JavaScript that any
// Node.js can parse, importing only built-in modules.
// @ts-check
import { readFileSync } from "node:fs";

/** The Node.js major version the message recommends and `npx -y node@<major>` fetches. */
export const RECOMMENDED_NODE_MAJOR = 24;

/**
 * The oldest supported Node.js as [major, minor], read from package.json's `engines.node` (">=22.12").
 * @returns {[number, number]}
 */
export function minimumNode() {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const match = /^>=\s*(\d+)(?:\.(\d+))?/.exec(manifest.engines.node);
  if (!match)
    throw new Error(`package.json engines.node must read ">=major.minor", not ${manifest.engines.node}`);
  return [Number(match[1]), Number(match[2] ?? 0)];
}

/** Whether `version` ("20.20.2") is at least the minimum. */
export function isSupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [needMajor, needMinor] = minimumNode();
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

/**
 * `value` as one shell word: unchanged when it is plain, else single-quoted.
 * @param {string} value
 */
export function shellQuote(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'"'"'`)}'`;
}

/**
 * What to do on an unsupported Node.js: the version needed, the one running, and how to get a supported one;
 * `rerun` is the command that runs the same thing once with Node.js 24 fetched by npx.
 * @param {string} rerun
 */
export function unsupportedNodeMessage(rerun, version = process.versions.node) {
  const [major, minor] = minimumNode();
  const want = RECOMMENDED_NODE_MAJOR;
  return [
    `Sitewright needs Node.js ${major}.${minor} or newer; this is Node.js ${version} (${process.execPath}). Nothing was started.`,
    "",
    `Run it once with Node.js ${want}, fetched by npx:`,
    `  ${rerun}`,
    "",
    `Or install Node.js ${want} with a version manager, then run the command again:`,
    `  nvm install ${want}                     (nvm)`,
    `  fnm use --install-if-missing ${want}    (fnm)`,
    `  volta install node@${want}              (Volta)`,
    "",
  ].join("\n");
}

/**
 * Prints the message to stderr and exits with status 1 when this Node.js is too old; returns otherwise.
 * @param {string} rerun
 */
export function exitUnlessSupportedNode(rerun) {
  if (isSupportedNode()) return;
  process.stderr.write(unsupportedNodeMessage(rerun));
  process.exit(1);
}
