import { createServer, type Server } from "node:http";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../../src/accounts/accounts.ts";
import { loadUserPrincipal } from "../../src/auth/users.ts";
import { hasChromium, launchChromium } from "../support/browser.ts";
import { resultJson } from "../support/mcp.ts";
import { MemoryOAuthProvider, type OAuthServer, startOAuthServer } from "../support/oauth.ts";

/** A loopback listener for the redirect, as Claude Code and other CLIs run one. */
async function callbackListener(): Promise<{ url: string; received: Promise<URL>; server: Server }> {
  let deliver: (url: URL) => void = () => undefined;
  const received = new Promise<URL>((resolve) => {
    deliver = resolve;
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") return void response.writeHead(404).end();
    response
      .writeHead(200, { "content-type": "text/html" })
      .end("<title>Connected</title><p>You can close this window.</p>");
    deliver(url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/callback`, received, server };
}

describe.skipIf(!hasChromium)("OAuth sign-in and consent in headless Chromium", () => {
  let s: OAuthServer;
  beforeAll(async () => {
    s = await startOAuthServer("sqlite");
  });
  afterAll(() => s?.close());

  it("a new user signs in, consents to one website read-only, and the official client lists and calls tools", async () => {
    const email = "ada@example.test";
    const password = "correct horse battery staple";
    const user = await signUp(s.t.platform, { email, password, name: "Ada" });
    const principal = (await s.t.platform.db.read((stores) => loadUserPrincipal(stores, user.id)))!;
    const organizationId = principal.grants[0]!.organizationId;
    const chosen = await s.t.call("websites.create", { name: "Ada's Blog", organizationId }, principal);
    await s.t.call("websites.create", { name: "Ada's Shop", organizationId }, principal);

    const callback = await callbackListener();
    const provider = new MemoryOAuthProvider(callback.url, undefined, "Browser Test CLI");
    const first = await connect(provider).catch((error) => error);
    expect(first).toBeInstanceOf(UnauthorizedError);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(provider.authorizationUrl!.href);
      expect(new URL(page.url()).pathname).toBe("/signin");
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', password);
      await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type="submit"]')]);
      await expect(page.textContent("h1")).resolves.toContain("Browser Test CLI");
      expect(await page.textContent("body")).toContain("runs on a computer");
      await page.check(`input[name="organization_id"][value="${organizationId}"]`);
      await page.check('input[name="websites"][value="some"]');
      await page.check(`input[name="website_ids"][value="${chosen.id}"]`);
      await page.check('input[name="access"][value="read"]');
      // The default toolsets come pre-checked; this person also leaves out the CMS.
      expect(await page.isChecked('input[name="toolsets"][value="cms"]')).toBe(true);
      expect(await page.isChecked('input[name="toolsets"][value="analytics"]')).toBe(false);
      expect(await page.textContent("body")).toContain("Visitor analytics of published websites.");
      await page.uncheck('input[name="toolsets"][value="cms"]');
      await Promise.all([page.waitForURL(/127\.0\.0\.1:\d+\/callback/), page.click('button[value="allow"]')]);
      expect(await page.textContent("body")).toContain("You can close this window.");
    } finally {
      await browser.close();
      callback.server.close();
    }

    const back = await callback.received;
    expect(back.searchParams.get("iss")).toBe(s.origin);
    const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
    await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss")!);
    const client = await connect(provider);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("websites_list");
    expect(names).not.toContain("websites_create");
    expect(names.filter((name) => name.startsWith("cms_"))).toEqual([]);
    const listed = resultJson(await client.callTool({ name: "websites_list", arguments: {} }));
    expect(listed.items.map((w: { name: string }) => w.name)).toEqual(["Ada's Blog"]);
    await client.close();
  });

  async function connect(provider: MemoryOAuthProvider) {
    const client = new Client({ name: "browser-flow", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider }));
    return client;
  }
});
