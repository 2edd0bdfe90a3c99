import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

export interface StdioBridgeOptions {
  /** The remote MCP endpoint, e.g. `http://localhost:8787/v1/mcp`. */
  url: string;
  /** The API key sent as `Authorization: Bearer`. */
  apiKey: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  log?: (message: string) => void;
}

/**
 * Bridges a stdio-only MCP client to the Streamable HTTP endpoint: each message read on stdin is sent with the
 * API key, each message received is written to stdout. The SDK's transports do the framing on both sides and
 * the protocol headers on the HTTP side (both protocol generations); the bridge tells the HTTP side the version
 * that `initialize` negotiated. Resolves when stdin closes.
 */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const remote = new StreamableHTTPClientTransport(new URL(options.url), {
    requestInit: { headers: { Authorization: `Bearer ${options.apiKey}` } },
  });
  const local = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream | undefined,
    options.stdout as NodeJS.WriteStream | undefined,
  );
  const initializeIds = new Set<string | number>();

  local.onmessage = (message) => {
    if ("method" in message && message.method === "initialize" && "id" in message)
      initializeIds.add(message.id);
    remote.send(message).catch((error: Error) => {
      log(`sitewright mcp: ${error.message}`);
      if ("id" in message && "method" in message) {
        void local.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32603, message: `Could not reach ${options.url}: ${error.message}` },
        });
      }
    });
  };
  remote.onmessage = (message) => {
    if ("result" in message && message.id !== undefined && initializeIds.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (error) => log(`sitewright mcp: ${error.message}`);
  local.onerror = (error) => log(`sitewright mcp: ${error.message}`);

  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
  });
  await remote.start();
  await local.start();
  const input = options.stdin ?? process.stdin;
  input.once("end", () => void local.close());
  await closed;
  await remote.close();
}
