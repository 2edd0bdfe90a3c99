/**
 * Connects to Sitewright's MCP endpoint the way Claude Code does, with no secret configured:
 *
 *   1. tries the MCP endpoint, gets 401 with `WWW-Authenticate: Bearer resource_metadata=...`;
 *   2. discovers the authorization server, registers itself (Dynamic Client Registration);
 *   3. starts a loopback HTTP listener for the redirect and prints (or opens) the authorize URL;
 *   4. you sign in and consent in the browser; the code arrives on the loopback port;
 *   5. exchanges the code with its PKCE verifier, then lists the tools it was granted.
 *
 * Run:  node --import tsx examples/connect-like-claude-code.ts [--open]
 * Env:  SITEWRIGHT_URL (default http://localhost:8787/v1/mcp)
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import {
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

const serverUrl = new URL(process.env.SITEWRIGHT_URL ?? "http://localhost:8787/v1/mcp");

// 3. The loopback listener (any free port: the server accepts any port on loopback redirects, RFC 8252 §7.3).
let deliver: (url: URL) => void = () => undefined;
const callback = new Promise<URL>((resolve) => {
  deliver = resolve;
});
const listener = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  if (url.pathname !== "/callback") return void response.writeHead(404).end();
  response.writeHead(200, { "content-type": "text/html" });
  response.end("<title>Connected</title><p>Sitewright is connected. You can close this window.</p>");
  deliver(url);
});
await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
const redirectUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}/callback`;

/** What a CLI keeps between runs (here: in memory, for one run). */
const store: {
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
} = {};

const provider: OAuthClientProvider = {
  redirectUrl,
  clientMetadata: {
    client_name: "Connect like Claude Code (Sitewright example)",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  },
  clientInformation: () => store.client,
  saveClientInformation(client) {
    store.client = client;
  },
  tokens: () => store.tokens,
  saveTokens(tokens) {
    store.tokens = tokens;
  },
  saveCodeVerifier(verifier) {
    store.verifier = verifier;
  },
  codeVerifier: () => store.verifier!,
  saveDiscoveryState(state) {
    store.discovery = state;
  },
  discoveryState: () => store.discovery,
  redirectToAuthorization(url) {
    console.log(`Open this URL to sign in and approve access: ${url.href}`);
    if (process.argv.includes("--open")) {
      const opener =
        process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
      spawn(opener, [url.href], { stdio: "ignore", detached: true }).unref();
    }
  },
};

const connect = async () => {
  const client = new Client({ name: "connect-like-claude-code", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  return client;
};

try {
  let client: Client;
  try {
    client = await connect(); // 1-2: 401, discovery, registration, then the redirect above
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    const back = await callback; // 4
    if (back.searchParams.get("error")) {
      throw new Error(
        `Authorization refused: ${back.searchParams.get("error_description") ?? back.searchParams.get("error")}`,
      );
    }
    // 5: code + PKCE verifier -> tokens (the iss parameter is checked against the discovered issuer, RFC 9207).
    const transport = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
    await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss") ?? undefined);
    client = await connect();
  }
  console.log(`Granted scope: ${store.tokens?.scope ?? "(unknown)"}`);
  const { tools } = await client.listTools();
  console.log(`Tools (${tools.length}): ${tools.map((tool) => tool.name).join(", ")}`);
  await client.close();
} finally {
  listener.close();
}
