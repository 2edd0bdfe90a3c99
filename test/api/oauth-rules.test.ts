import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listConnectedClients } from "../../src/oauth/connections.ts";
import { narrowToConsent } from "../../src/oauth/tokens.ts";
import { dialects } from "../support/databases.ts";
import { type OAuthServer, sessionCookie, startOAuthServer } from "../support/oauth.ts";
import { oauthHttp, pkce } from "../support/oauth-http.ts";

const REDIRECT = "http://127.0.0.1/callback";

describe("a token's principal", () => {
  const consent = {
    id: "grant_1",
    userId: "usr_1",
    clientId: "swc_1",
    organizationId: "org_a",
    websiteIds: ["w1", "w2"] as string[] | null,
    access: "read" as const,
    toolsets: ["websites", "docs"] as string[] | null,
    scope: "mcp:read",
    createdAt: 0,
    updatedAt: 0,
    lastUsedAt: null,
    revokedAt: null,
  };
  const user = (
    grants: { organizationId: string; role: "owner" | "content_editor"; websiteIds?: string[] }[],
  ) => ({
    type: "user" as const,
    id: "usr_1",
    userId: "usr_1",
    label: "Ada",
    grants,
    bucketKey: "user:usr_1",
  });

  it("is the user's current grants narrowed to the consent, never more", () => {
    const narrowed = narrowToConsent(
      user([
        { organizationId: "org_a", role: "content_editor", websiteIds: ["w2", "w3"] },
        { organizationId: "org_b", role: "owner" },
      ]),
      consent,
    );
    expect(narrowed).toMatchObject({
      type: "oauth_token",
      id: "grant_1",
      userId: "usr_1",
      readOnly: true,
      toolsets: ["websites", "docs"],
    });
    expect(narrowed.grants).toEqual([
      { organizationId: "org_a", role: "content_editor", websiteIds: ["w2"] },
    ]);
    // Removed from the organization: the token reaches nothing (and is not an error).
    expect(narrowToConsent(user([{ organizationId: "org_b", role: "owner" }]), consent).grants).toEqual([]);
    const all = narrowToConsent(user([{ organizationId: "org_a", role: "owner" }]), {
      ...consent,
      websiteIds: null,
      access: "write",
      toolsets: null,
    });
    expect(all.grants).toEqual([{ organizationId: "org_a", role: "owner" }]);
    expect(all.readOnly).toBeUndefined();
    // A consent from before toolsets were offered limits nothing.
    expect(all.toolsets).toBeUndefined();
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`OAuth rules: authorization and tokens [${dialect.name}]`, () => {
    let s: OAuthServer;
    let h: ReturnType<typeof oauthHttp>;
    let cookie: string;
    let clientId: string;
    beforeAll(async () => {
      s = await startOAuthServer(dialect.name);
      h = oauthHttp(s);
      cookie = await sessionCookie(s.t);
      clientId = await h.client([REDIRECT, "cursor://anysphere.cursor-retrieval/oauth/callback"]);
    }, 60_000);
    afterAll(() => s?.close());
    const base = () => ({ client_id: clientId, redirect_uri: REDIRECT, response_type: "code", state: "s1" });

    it("publishes the metadata, and a 401 from /mcp points at it", async () => {
      const prm = await (await fetch(`${s.origin}/.well-known/oauth-protected-resource/v1/mcp`)).json();
      expect(prm).toMatchObject({ resource: s.mcpUrl, authorization_servers: [s.origin] });
      const as = await fetch(`${s.origin}/.well-known/oauth-authorization-server`);
      expect(as.headers.get("access-control-allow-origin")).toBe("*");
      expect(await as.json()).toMatchObject({
        issuer: s.origin,
        code_challenge_methods_supported: ["S256"],
        client_id_metadata_document_supported: true,
        authorization_response_iss_parameter_supported: true,
      });
      const preflight = await fetch(`${s.origin}/oauth/token`, { method: "OPTIONS" });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
      const denied = await h.mcp(undefined, "tools/list");
      expect(denied.status).toBe(401);
      expect(denied.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${s.origin}/.well-known/oauth-protected-resource/v1/mcp", scope="mcp:read mcp:write"`,
      );
    });

    it("sends a signed-out user to sign in and back", async () => {
      const { challenge } = pkce();
      const response = await h.authorize({
        ...base(),
        code_challenge: challenge,
        code_challenge_method: "S256",
      });
      expect(response.status).toBe(303);
      const next = new URL(response.headers.get("location")!, s.origin);
      expect(next.pathname).toBe("/signin");
      expect(next.searchParams.get("next")).toMatch(/^\/oauth\/authorize\?/);
    });

    it("refuses plain PKCE and a missing challenge, back to the client with error, state and iss", async () => {
      for (const extra of [{ code_challenge: "x".repeat(43), code_challenge_method: "plain" }, {}]) {
        const response = await h.authorize({ ...base(), ...extra }, cookie);
        expect(response.status).toBe(302);
        const back = new URL(response.headers.get("location")!);
        expect(back.searchParams.get("error")).toBe("invalid_request");
        expect(back.searchParams.get("state")).toBe("s1");
        expect(back.searchParams.get("iss")).toBe(s.origin);
        expect(back.searchParams.has("code")).toBe(false);
      }
    });

    it("never redirects to an unregistered redirect URI or for an unknown client", async () => {
      const { challenge } = pkce();
      const pkceParams = { code_challenge: challenge, code_challenge_method: "S256" };
      for (const params of [
        { ...base(), ...pkceParams, redirect_uri: "https://evil.example/callback" },
        { ...base(), ...pkceParams, redirect_uri: "http://127.0.0.1:4444/other" },
        { ...base(), ...pkceParams, client_id: "swc_unknown" },
      ]) {
        const response = await h.authorize(params, cookie);
        expect(response.status).toBe(400);
        expect(response.headers.get("location")).toBeNull();
        expect(response.headers.get("content-type")).toContain("text/html");
      }
    });

    it("accepts any port on a loopback redirect and a private-use scheme", async () => {
      const loopback = await h.code(clientId, "http://127.0.0.1:51234/callback", cookie);
      expect(loopback.back.host).toBe("127.0.0.1:51234");
      const native = await h.code(clientId, "cursor://anysphere.cursor-retrieval/oauth/callback", cookie);
      expect(native.back.protocol).toBe("cursor:");
      expect(native.code).toMatch(/^swo_ac_/);
      expect(native.back.searchParams.get("iss")).toBe(s.origin);
    });

    it("refuses a wrong resource at authorize and token time", async () => {
      const { challenge } = pkce();
      const response = await h.authorize(
        {
          ...base(),
          code_challenge: challenge,
          code_challenge_method: "S256",
          resource: "https://other.example/mcp",
        },
        cookie,
      );
      expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
      const { code, verifier } = await h.code(clientId, REDIRECT, cookie);
      const token = await h.token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
        resource: "https://other.example/mcp",
      });
      expect(token.status).toBe(400);
      expect(token.body.error).toBe("invalid_target");
    });

    it("a failed verifier consumes the code", async () => {
      const { code, verifier } = await h.code(clientId, REDIRECT, cookie);
      const params = { grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId };
      const wrong = await h.token({ ...params, code_verifier: pkce().verifier });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");
      expect(wrong.headers.get("cache-control")).toBe("no-store");
      expect(wrong.headers.get("content-type")).toBe("application/json");
      const right = await h.token({ ...params, code_verifier: verifier });
      expect(right.body.error).toBe("invalid_grant");
      const none = await h.code(clientId, REDIRECT, cookie);
      const missing = await h.token({ ...params, code: none.code });
      expect(missing.body.error).toBe("invalid_grant");
    });

    it("a reused code revokes every token it issued", async () => {
      const { code, verifier } = await h.code(clientId, REDIRECT, cookie);
      const params = {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      };
      const first = await h.token(params);
      expect(first.status).toBe(200);
      expect((await h.mcp(first.body.access_token, "tools/list")).status).toBe(200);
      const second = await h.token(params);
      expect(second.body.error).toBe("invalid_grant");
      expect((await h.mcp(first.body.access_token, "tools/list")).status).toBe(401);
      const refresh = await h.token({
        grant_type: "refresh_token",
        refresh_token: first.body.refresh_token,
        client_id: clientId,
      });
      expect(refresh.body.error).toBe("invalid_grant");
    });

    it("an expired code is refused", async () => {
      s.t.platform.config.oauth.codeTtlMs = 1;
      const { code, verifier } = await h.code(clientId, REDIRECT, cookie);
      s.t.platform.config.oauth.codeTtlMs = 10 * 60 * 1000;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const response = await h.token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      });
      expect(response.body).toMatchObject({
        error: "invalid_grant",
        error_description: expect.stringContaining("expired"),
      });
    });

    it("a mismatched redirect_uri at the token endpoint is refused", async () => {
      const { code, verifier } = await h.code(clientId, REDIRECT, cookie);
      const response = await h.token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: "http://127.0.0.1:9999/callback",
        client_id: clientId,
      });
      expect(response.body.error).toBe("invalid_grant");
    });

    it("replaying a rotated refresh token revokes the whole family", async () => {
      const first = await h.tokens(clientId, REDIRECT, cookie);
      const rotate = (refresh_token: string) =>
        h.token({ grant_type: "refresh_token", refresh_token, client_id: clientId });
      const second = await rotate(first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      const replay = await rotate(first.refresh_token);
      expect(replay.body.error).toBe("invalid_grant");
      expect((await rotate(second.body.refresh_token)).body.error).toBe("invalid_grant");
      expect((await h.mcp(second.body.access_token, "tools/list")).status).toBe(401);
    });

    it("OAuth tokens are refused by the REST API (401) and answered on every /mcp method without 401", async () => {
      const tokens = await h.tokens(clientId, REDIRECT, cookie);
      const rest = await fetch(`${s.origin}/v1/websites`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(rest.status).toBe(401);
      expect(rest.headers.get("www-authenticate")).toBe('Bearer realm="sitewright", error="invalid_token"');
      expect((await rest.json()).message).toContain(`MCP endpoint (${s.mcpUrl})`);
      const get = await fetch(s.mcpUrl, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(get.status).toBe(405);
      const revoked = await h.revoke({ token: tokens.access_token, client_id: clientId });
      expect(revoked.status).toBe(200);
      const refused = await h.mcp(tokens.access_token, "tools/list");
      expect(refused.status).toBe(401);
      const body = await refused.json();
      expect(body.message).toContain("revoked");
      expect(body.suggestion).toMatch(/^Reconnect the client/);
      expect(body.suggestion).not.toMatch(/API key/);
    });

    it("a token for another resource is refused on /mcp", async () => {
      const tokens = await h.tokens(clientId, REDIRECT, cookie);
      expect((await h.mcp(tokens.access_token, "tools/list")).status).toBe(200);
      const saved = s.t.platform.config.baseUrl;
      s.t.platform.config.baseUrl = `${s.origin}/v2`;
      try {
        const response = await h.mcp(tokens.access_token, "tools/list");
        expect(response.status).toBe(401);
        expect((await response.json()).message).toContain("another resource");
      } finally {
        s.t.platform.config.baseUrl = saved;
      }
    });

    it("read-only consent hides write tools; calling one is 403 insufficient_scope", async () => {
      const tokens = await h.tokens(clientId, REDIRECT, cookie, { access: "read" });
      const listed = await (await h.mcp(tokens.access_token, "tools/list")).json();
      const tools = listed.result.tools as { name: string; annotations: { readOnlyHint: boolean } }[];
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((tool) => tool.annotations.readOnlyHint)).toBe(true);
      const call = await h.mcp(tokens.access_token, "tools/call", {
        name: "websites_create",
        arguments: { name: "x" },
      });
      expect(call.status).toBe(403);
      const header = call.headers.get("www-authenticate")!;
      expect(header).toContain('Bearer error="insufficient_scope"');
      expect(header).toContain('scope="mcp:read mcp:write"');
      const read = await h.mcp(tokens.access_token, "tools/call", { name: "websites_list", arguments: {} });
      expect(read.status).toBe(200);
    });

    it("the consent form without its CSRF token grants nothing", async () => {
      const { challenge } = pkce();
      const form = new URLSearchParams({
        ...base(),
        code_challenge: challenge,
        code_challenge_method: "S256",
        organization_id: s.t.local.organization.id,
        websites: "all",
        access: "write",
        decision: "allow",
      });
      const before = await listConnectedClients(s.t.platform, s.t.local.owner.id);
      const response = await fetch(`${s.origin}/oauth/authorize`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        redirect: "manual",
      });
      expect(response.status).toBe(403);
      expect(response.headers.get("location")).toBeNull();
      expect(await listConnectedClients(s.t.platform, s.t.local.owner.id)).toHaveLength(before.length);
    });

    it("revoking a connected client revokes its tokens at once", async () => {
      const tokens = await h.tokens(clientId, REDIRECT, cookie, { access: "read" });
      const connections = await listConnectedClients(s.t.platform, s.t.local.owner.id);
      const newest = connections[0]!;
      expect(newest).toMatchObject({ clientName: "Rules Client", redirectHost: "127.0.0.1", access: "read" });
      await h.mcp(tokens.access_token, "tools/list");
      await s.t.callAsUser(s.t.local.owner.id, "accounts.connectedClients.revoke", {
        grantId: newest.grantId,
      });
      expect((await h.mcp(tokens.access_token, "tools/list")).status).toBe(401);
      const refresh = await h.token({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      expect(refresh.body.error).toBe("invalid_grant");
      const after = await listConnectedClients(s.t.platform, s.t.local.owner.id);
      expect(after.find((c) => c.grantId === newest.grantId)).toBeUndefined();
    });

    it("the token endpoint answers JSON for every error", async () => {
      const unsupported = await h.token({ grant_type: "password", client_id: clientId });
      expect(unsupported.body.error).toBe("unsupported_grant_type");
      const unknown = await h.token({
        grant_type: "authorization_code",
        code: "nope",
        client_id: "swc_nope",
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe("invalid_client");
      const notForm = await fetch(`${s.origin}/oauth/token`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json" },
      });
      expect(notForm.headers.get("content-type")).toBe("application/json");
      expect((await notForm.json()).error).toBe("invalid_request");
    });
  });
}
