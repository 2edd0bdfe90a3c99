import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { type OAuthServer, startOAuthServer } from "../support/oauth.ts";

/** A page on its own loopback port: the origin a browser-based MCP client runs on. */
async function pageServer(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>MCP client</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, server };
}

/** What the page's script sees: initialize and tools/list over fetch, or the browser's refusal. */
interface Outcome {
  ok: boolean;
  error?: string;
  initialize?: { status: number; protocolVersion: string | null; serverName: string };
  tools?: number;
  challenge?: { status: number; wwwAuthenticate: string | null };
}

/** Runs in the page: the requests a browser MCP client makes, with the API key in Authorization. */
async function callFromPage(args: { url: string; key: string }): Promise<Outcome> {
  const post = (body: unknown, headers: Record<string, string>) =>
    fetch(args.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  try {
    const auth = { authorization: `Bearer ${args.key}` };
    const init = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "page", version: "1" },
        },
      },
      auth,
    );
    const initBody = await init.json();
    const list = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
      { ...auth, "mcp-protocol-version": "2025-11-25" },
    );
    const listBody = await list.json();
    const challenge = await post({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, {});
    return {
      ok: true,
      initialize: {
        status: init.status,
        protocolVersion: initBody.result.protocolVersion,
        serverName: initBody.result.serverInfo.name,
      },
      tools: listBody.result.tools.length,
      challenge: { status: challenge.status, wwwAuthenticate: challenge.headers.get("www-authenticate") },
    };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

describe.skipIf(!hasChromium)("MCP endpoint called by a page on another origin, in Chromium", () => {
  let s: OAuthServer;
  let allowed: Awaited<ReturnType<typeof pageServer>>;
  let foreign: Awaited<ReturnType<typeof pageServer>>;
  let browser: Browser;
  beforeAll(async () => {
    s = await startOAuthServer("sqlite");
    allowed = await pageServer();
    foreign = await pageServer();
    s.t.platform.config.allowedOrigins = [allowed.origin];
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    allowed?.server.close();
    foreign?.server.close();
    await s?.close();
  });

  const run = async (origin: string) => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(callFromPage, { url: s.mcpUrl, key: s.t.adminKey.plaintextKey });
    } finally {
      await page.close();
    }
  };

  it("a page on an allowed origin initializes, lists tools and reads the 401 challenge", async () => {
    const outcome = await run(allowed.origin);
    expect(outcome.error).toBeUndefined();
    expect(outcome.initialize).toEqual({
      status: 200,
      protocolVersion: "2025-11-25",
      serverName: "sitewright",
    });
    expect(outcome.tools).toBeGreaterThan(10);
    expect(outcome.challenge?.status).toBe(401);
    expect(outcome.challenge?.wwwAuthenticate).toMatch(/^Bearer resource_metadata="/);
  });

  it("a page on a foreign origin is refused by the browser: its fetch fails", async () => {
    const outcome = await run(foreign.origin);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/TypeError: Failed to fetch/);
  });
});
