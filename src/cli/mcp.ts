import { parseArgs } from "node:util";
import { defaultConfig } from "../kernel/platform.ts";
import { UsageError } from "./support.ts";

/** `sitewright mcp --stdio`: bridges a stdio-only MCP client to the HTTP endpoint. */
export async function mcp(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { stdio: { type: "boolean", default: false }, url: { type: "string" } },
  });
  if (!values.stdio)
    throw new UsageError("mcp needs --stdio (the HTTP endpoint is served by dev and serve).");
  const apiKey = process.env.SITEWRIGHT_API_KEY;
  if (!apiKey) throw new UsageError("Set SITEWRIGHT_API_KEY to an API key for the bridge to send.");
  const url = values.url ?? process.env.SITEWRIGHT_URL ?? `${defaultConfig().baseUrl}/mcp`;
  const { runStdioBridge } = await import("../mcp/stdio-bridge.ts");
  await runStdioBridge({ url, apiKey });
}
