import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToolsets, toolsetCatalog, toolsets } from "../../src/kernel/toolsets.ts";
import { dialects } from "../support/databases.ts";
import { resultJson } from "../support/mcp.ts";
import {
  consentOverHttp,
  MemoryOAuthProvider,
  type OAuthServer,
  precheckedToolsets,
  selfSignedCertificate,
  serveDocuments,
  sessionCookie,
  startOAuthServer,
} from "../support/oauth.ts";

const certificate = selfSignedCertificate();

/** Connects the official client with `provider`: the first attempt discovers from the 401 and asks to redirect. */
async function connectWithOAuth(mcpUrl: string, provider: MemoryOAuthProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const client = new Client({ name: "oauth-flow-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`OAuth with the official MCP client [${dialect.name}]`, () => {
    let s: OAuthServer;
    let documents: Awaited<ReturnType<typeof serveDocuments>>;
    const served: Parameters<typeof serveDocuments>[1] = {};
    let siteA: { id: string };
    let siteB: { id: string };
    let cookie: string;
    const clientPath = "/mcp-client.json";
    beforeAll(async () => {
      s = await startOAuthServer(dialect.name);
      documents = await serveDocuments(certificate, served);
      s.t.platform.config.allowLoopbackClientIds = true;
      s.t.platform.config.oauth.ca = certificate.cert;
      siteA = await s.t.createWebsite("Flow Site A");
      siteB = await s.t.createWebsite("Flow Site B");
      cookie = await sessionCookie(s.t);
    }, 60_000);
    afterAll(async () => {
      await documents?.close();
      await s?.close();
    });

    it("discovers from the 401, uses the client's metadata document, and gets a read-only token for one website", async () => {
      const clientId = `${documents.origin}${clientPath}`;
      const redirect = "http://127.0.0.1:47123/callback";
      // The document registers the port-less loopback redirect; any port is accepted (RFC 8252 §7.3).
      const doc = {
        client_id: clientId,
        client_name: "Doc Client",
        redirect_uris: ["http://127.0.0.1/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
      served[clientPath] = { body: JSON.stringify(doc), headers: { "cache-control": "max-age=3600" } };
      const provider = new MemoryOAuthProvider(redirect, clientId);

      const first = await connectWithOAuth(s.mcpUrl, provider).catch((error) => error);
      expect(first).toBeInstanceOf(UnauthorizedError);
      const url = provider.authorizationUrl!;
      expect(url.origin).toBe(s.origin);
      expect(url.pathname).toBe("/oauth/authorize");
      expect(url.searchParams.get("client_id")).toBe(clientId);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("resource")).toBe(s.mcpUrl);
      expect(provider.client).toMatchObject({ client_id: clientId });

      const back = await consentOverHttp(url.href, cookie, {
        organizationId: s.t.local.organization.id,
        access: "read",
        websiteIds: [siteA.id],
      });
      expect(`${back.origin}${back.pathname}`).toBe(redirect);
      expect(back.searchParams.get("iss")).toBe(s.origin);
      expect(back.searchParams.get("state")).toBe(url.searchParams.get("state"));
      const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
      await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss")!);
      expect(provider.saved?.access_token).toMatch(/^swo_at_/);
      expect(provider.saved?.refresh_token).toMatch(/^swo_rt_/);
      expect(provider.saved?.scope).toBe("mcp:read");
      expect(documents.hits.get(clientPath)).toBe(1);

      const client = await connectWithOAuth(s.mcpUrl, provider);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("websites_list");
      expect(names).toContain("websites_get");
      expect(names).not.toContain("websites_create");
      expect(names).not.toContain("websites_update");
      const listed = resultJson(await client.callTool({ name: "websites_list", arguments: {} }));
      expect(listed.items.map((w: { id: string }) => w.id)).toEqual([siteA.id]);
      const other = await client.callTool({ name: "websites_get", arguments: { websiteId: siteB.id } });
      expect(other.isError).toBe(true);
      expect(resultJson(other).kind).toBe("not_found");
      await client.close();

      // Refresh: the client rotates its refresh token and keeps working with the new access token.
      const before = provider.saved!;
      expect(await auth(provider, { serverUrl: s.mcpUrl })).toBe("AUTHORIZED");
      expect(provider.saved!.access_token).not.toBe(before.access_token);
      expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
      const again = await connectWithOAuth(s.mcpUrl, provider);
      expect((await again.listTools()).tools.map((tool) => tool.name)).toEqual(names);
      await again.close();
    });

    it("registers dynamically when no metadata document is offered, and a write consent calls write tools", async () => {
      const provider = new MemoryOAuthProvider(
        "http://localhost:39999/oauth/callback",
        undefined,
        "DCR Client",
      );
      const first = await connectWithOAuth(s.mcpUrl, provider).catch((error) => error);
      expect(first).toBeInstanceOf(UnauthorizedError);
      expect(provider.client?.client_id).toMatch(/^swc_/);
      const back = await consentOverHttp(provider.authorizationUrl!.href, cookie, {
        organizationId: s.t.local.organization.id,
        access: "write",
      });
      const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
      await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss")!);
      const client = await connectWithOAuth(s.mcpUrl, provider);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["websites_create", "websites_list", "websites_update"]));
      const created = await client.callTool({
        name: "websites_create",
        arguments: { name: "Made over OAuth" },
      });
      expect(created.isError).toBeFalsy();
      const listed = resultJson(await client.callTool({ name: "websites_list", arguments: {} }));
      expect(listed.items.map((w: { id: string }) => w.id)).toEqual(
        expect.arrayContaining([siteA.id, siteB.id, resultJson(created).id]),
      );
      await client.close();
      // API keys keep working on the same URL.
      const keyed = new Client({ name: "key", version: "1" });
      await keyed.connect(
        new StreamableHTTPClientTransport(new URL(s.mcpUrl), {
          requestInit: { headers: { authorization: `Bearer ${s.t.adminKey.plaintextKey}` } },
        }),
      );
      expect((await keyed.listTools()).tools.length).toBeGreaterThan(names.length - 1);
      await keyed.close();
    });
    it("a consent to only websites and docs lists and allows only their tools, also after refresh", async () => {
      const provider = new MemoryOAuthProvider(
        "http://127.0.0.1:39998/callback",
        undefined,
        "Toolset Client",
      );
      expect(await connectWithOAuth(s.mcpUrl, provider).catch((error) => error)).toBeInstanceOf(
        UnauthorizedError,
      );
      const authorizeUrl = provider.authorizationUrl!.href;
      // The page lists every toolset with its description; the default set is pre-checked.
      const page = await (await fetch(authorizeUrl, { headers: { cookie } })).text();
      for (const set of toolsets) {
        expect(page).toContain(`name="toolsets" value="${set}"`);
        expect(page).toContain(toolsetCatalog[set].replaceAll("'", "&#39;"));
      }
      expect(precheckedToolsets(page)).toEqual([...defaultToolsets]);
      // Nothing checked: refused with a message, and no code is issued.
      await expect(
        consentOverHttp(authorizeUrl, cookie, { organizationId: s.t.local.organization.id, toolsets: [] }),
      ).rejects.toThrow(/consent answered 400: .*Check at least one toolset/s);
      await expect(
        consentOverHttp(authorizeUrl, cookie, {
          organizationId: s.t.local.organization.id,
          toolsets: ["nope"],
        }),
      ).rejects.toThrow(/Check at least one toolset/);

      const back = await consentOverHttp(authorizeUrl, cookie, {
        organizationId: s.t.local.organization.id,
        toolsets: ["websites", "docs"],
      });
      const transport = new StreamableHTTPClientTransport(new URL(s.mcpUrl), { authProvider: provider });
      await transport.finishAuth(back.searchParams.get("code")!, back.searchParams.get("iss")!);
      const inToolsets = (name: string) => /^(websites|documentation|feedback)_/.test(name);
      const check = async () => {
        const client = await connectWithOAuth(s.mcpUrl, provider);
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining(["websites_list", "websites_create", "documentation_search"]),
        );
        expect(names.filter((name) => !inToolsets(name))).toEqual([]);
        const outside = await client.callTool({ name: "cms_collections_list", arguments: {} });
        expect(outside.isError).toBe(true);
        expect(resultJson(outside)).toMatchObject({ kind: "forbidden" });
        expect(resultJson(outside).message).toContain("'cms'");
        expect((await client.callTool({ name: "websites_list", arguments: {} })).isError).toBeFalsy();
        await client.close();
        return names;
      };
      const names = await check();
      // Refresh keeps the choice.
      const before = provider.saved!;
      expect(await auth(provider, { serverUrl: s.mcpUrl })).toBe("AUTHORIZED");
      expect(provider.saved!.access_token).not.toBe(before.access_token);
      expect(await check()).toEqual(names);
      // ?toolsets= narrows within the consent, never beyond it.
      const narrowedClient = new Client({ name: "narrowed", version: "1" });
      await narrowedClient.connect(
        new StreamableHTTPClientTransport(new URL(`${s.mcpUrl}?toolsets=docs,cms`), {
          requestInit: { headers: { authorization: `Bearer ${provider.saved!.access_token}` } },
        }),
      );
      const narrowedNames = (await narrowedClient.listTools()).tools.map((tool) => tool.name);
      expect(narrowedNames).toContain("documentation_search");
      expect(narrowedNames.filter((name) => !/^(documentation|feedback)_/.test(name))).toEqual([]);
      const cms = await narrowedClient.callTool({ name: "cms_collections_list", arguments: {} });
      expect(resultJson(cms).kind).toBe("forbidden");
      const sites = await narrowedClient.callTool({ name: "websites_list", arguments: {} });
      expect(resultJson(sites).message).toContain("'websites'");
      await narrowedClient.close();
    });
  });
}
