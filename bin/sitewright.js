#!/usr/bin/env node
// Checks the Node.js version first (nothing native is loaded yet), then runs the built CLI when present, otherwise
// the TypeScript sources through tsx (no build step in dev).
// @ts-check
import { existsSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { exitUnlessSupportedNode, RECOMMENDED_NODE_MAJOR, shellQuote } from "../scripts/node-version.mjs";

const invoked = process.argv[1] ?? "sitewright";
const script = relative(process.cwd(), invoked);
const self = script.startsWith("..") || isAbsolute(script) ? invoked : script;
const args = [self, ...process.argv.slice(2)].map(shellQuote).join(" ");
exitUnlessSupportedNode(`npx -y node@${RECOMMENDED_NODE_MAJOR} ${args}`);

const built = new URL("../dist/cli.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
