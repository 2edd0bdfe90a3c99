import { createRequire } from "node:module";

/** The package version, reported as the MCP server version. */
export const version: string = (createRequire(import.meta.url)("../package.json") as { version: string })
  .version;
