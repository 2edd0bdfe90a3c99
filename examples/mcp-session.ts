// The MCP session the example scripts share: a client connected with an API key, a `call` that returns a tool's
// structured output (a failed call prints the error body and ends the script), and `check`, which prints one
// `ok`/`FAIL` line per step and remembers a failure for `finish`.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** Connects to the MCP endpoint at `url` with `apiKey` (sent as a Bearer token) as client `name`. */
export async function connectWithKey(url: URL, apiKey: string, name: string) {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  );
  let failed = false;
  return {
    client,
    /** Calls a tool and returns its structured output; a failed call prints the error body and ends the script. */
    async call<T>(tool: string, args: Record<string, unknown>): Promise<T> {
      const result = await client.callTool({ name: tool, arguments: args });
      if (result.isError) {
        const [first] = result.content as { text?: string }[];
        console.error(`FAIL ${tool}: ${first?.text}`);
        process.exit(1);
      }
      return result.structuredContent as T;
    },
    /** Prints `ok` or `FAIL`, what was checked and what was seen. */
    check(what: string, ok: boolean, detail: string) {
      console.log(`${ok ? "ok" : "FAIL"} ${what}: ${detail}`);
      if (!ok) failed = true;
    },
    /** Closes the session and ends the script: status 1 when a check failed. */
    async finish(): Promise<never> {
      await client.close();
      process.exit(failed ? 1 : 0);
    },
  };
}
