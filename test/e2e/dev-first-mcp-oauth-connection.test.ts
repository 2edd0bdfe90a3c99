// A new user's first connection: start `sitewright dev`, set the owner's password from the printed
// link, point the official MCP client at http://localhost:<port>/v1/mcp with no secret, sign in and consent in
// Chromium, then list and call tools limited to what was consented.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { resultJson } from "../support/mcp.ts";
import { MemoryOAuthProvider } from "../support/oauth.ts";

const bin = join(import.meta.dirname, "..", "..", "bin", "sitewright.js");
const { DATABASE_URL: _, ...env } = process.env;

async function callbackListener(): Promise<{ url: string; received: Promise<URL>; server: Server }> {
  let deliver: (url: URL) => void = () => undefined;
  const received = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<p>You can close this window.</p>");
    deliver(new URL(request.url ?? "/", "http://127.0.0.1"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/callback`,
    received,
    server,
  };
}

describe.skipIf(!hasChromium)("a real MCP client against `sitewright dev`, OAuth in Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "sitewright-first-connection-"));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  it("sets the owner's password, consents read-only, and lists and calls only read tools", async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    child = spawn(process.execPath, [bin, "dev", "--port", String(port), "--data-dir", dir], { env });
    let output = "";
    const setupLink = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dev did not start: ${output}`)), 60_000);
      child!.stdout!.on("data", (chunk) => {
        output += chunk;
        const match = /^\s{4}(http:\/\/localhost:\d+\/password\/reset\?token=[\w-]{43})$/m.exec(output);
        if (match && output.includes("claude mcp add")) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child!.on("exit", (code) => reject(new Error(`dev exited ${code}: ${output}`)));
    });
    const mcpUrl = `http://localhost:${port}/v1/mcp`;
    expect(output).toContain(mcpUrl);
    const email = /sign in as (\S+)\)/.exec(output)![1]!;
    const password = "a long local owner password";

    const callback = await callbackListener();
    const provider = new MemoryOAuthProvider(callback.url, undefined, "First-connection CLI");
    const connect = async () => {
      const client = new Client({ name: "first-connection", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
      return client;
    };
    // No secret configured: the first connection is refused with the way to sign in (discovery, DCR, PKCE).
    expect(await connect().catch((error) => error)).toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.href).toMatch(
      new RegExp(`^http://localhost:${port}/oauth/authorize\\?`),
    );

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(setupLink);
      await page.fill('input[name="password"]', password);
      await Promise.all([page.waitForURL(/\/signin/), page.click('button[type="submit"]')]);

      await page.goto(provider.authorizationUrl!.href);
      expect(new URL(page.url()).pathname).toBe("/signin");
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', password);
      await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type="submit"]')]);
      await expect(page.textContent("h1")).resolves.toContain("First-connection CLI");
      await page.check('input[name="access"][value="read"]');
      await Promise.all([page.waitForURL(/127\.0\.0\.1:\d+\/callback/), page.click('button[value="allow"]')]);
    } finally {
      await browser.close();
      callback.server.close();
    }

    const back = await callback.received;
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
    await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss")!);
    const client = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("websites_list");
    expect(names).toContain("cms_items_query");
    expect(names).not.toContain("websites_create");
    const listed = resultJson(await client.callTool({ name: "websites_list", arguments: {} }));
    expect(Array.isArray(listed.items)).toBe(true);
    await client.close();

    // Beyond the consent: a write tool is refused with the step-up challenge, and nothing is created.
    const token = provider.tokens()!.access_token;
    const refused = await fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "websites_create", arguments: { name: "Nope" } },
      }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  }, 180_000);
});
