#!/usr/bin/env node
// Runs the built CLI when present, otherwise the TypeScript sources through tsx (no build step in dev).
import { existsSync } from "node:fs";

const built = new URL("../dist/cli.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
