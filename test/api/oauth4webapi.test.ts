import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects } from "../support/databases.ts";
import { consentOverHttp, type OAuthServer, sessionCookie, startOAuthServer } from "../support/oauth.ts";

// The test server is plain http on loopback; oauth4webapi refuses that unless told otherwise.
const insecure = { [oauth.allowInsecureRequests]: true } as const;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`oauth4webapi as an independent client [${dialect.name}]`, () => {
    let s: OAuthServer;
    beforeAll(async () => {
      s = await startOAuthServer(dialect.name);
    }, 60_000);
    afterAll(() => s?.close());

    it("discovers, registers, runs the PKCE code flow, calls /mcp, rotates and revokes", async () => {
      const resource = new URL(s.mcpUrl);
      const rs = await oauth.processResourceDiscoveryResponse(
        resource,
        await oauth.resourceDiscoveryRequest(resource, insecure),
      );
      expect(rs.resource).toBe(s.mcpUrl);
      const issuer = new URL(rs.authorization_servers![0]!);
      const as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
      );
      expect(as.code_challenge_methods_supported).toEqual(["S256"]);

      const redirectUri = "http://127.0.0.1:8123/cb";
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          { client_name: "oauth4webapi", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
          insecure,
        ),
      );
      expect(client.client_id).toMatch(/^swc_/);

      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorize = new URL(as.authorization_endpoint!);
      authorize.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "mcp:read mcp:write",
        state,
        resource: s.mcpUrl,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      }).toString();
      const cookie = await sessionCookie(s.t);
      const back = await consentOverHttp(authorize.href, cookie, {
        organizationId: s.t.local.organization.id,
      });
      // Checks state and iss (the server advertises authorization_response_iss_parameter_supported).
      const params = oauth.validateAuthResponse(as, client, back, state);

      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
          additionalParameters: { resource: s.mcpUrl },
          ...insecure,
        }),
      );
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.scope).toBe("mcp:read mcp:write");

      const listTools = (token: string) =>
        oauth.protectedResourceRequest(
          token,
          "POST",
          resource,
          new Headers({
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
          }),
          JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
          insecure,
        );
      const listed = await listTools(tokens.access_token);
      expect(listed.status).toBe(200);
      expect((await listed.json()).result.tools.map((t: { name: string }) => t.name)).toContain(
        "websites_create",
      );

      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
      );
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect((await listTools(refreshed.access_token)).status).toBe(200);

      const replay = await oauth
        .processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
        )
        .catch((error) => error);
      expect(replay).toBeInstanceOf(oauth.ResponseBodyError);
      expect(replay.error).toBe("invalid_grant");
      // The replay revoked the family, the rotated tokens included: the resource answers with a challenge.
      const challenge = await listTools(refreshed.access_token).catch((error) => error);
      expect(challenge).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
      expect(challenge.cause[0].parameters).toMatchObject({
        error: "invalid_token",
        scope: "mcp:read mcp:write",
      });
    });

    it("revokes an access token (RFC 7009)", async () => {
      const redirectUri = "http://127.0.0.1:8124/cb";
      const issuer = new URL(s.origin);
      const as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
      );
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri] }, insecure),
      );
      const verifier = oauth.generateRandomCodeVerifier();
      const authorize = new URL(as.authorization_endpoint!);
      authorize.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: redirectUri,
        response_type: "code",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      }).toString();
      const cookie = await sessionCookie(s.t);
      const back = await consentOverHttp(authorize.href, cookie, {
        organizationId: s.t.local.organization.id,
        access: "read",
      });
      const params = oauth.validateAuthResponse(as, client, back, oauth.expectNoState);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          redirectUri,
          verifier,
          insecure,
        ),
      );
      expect(tokens.scope).toBe("mcp:read");
      await oauth.processRevocationResponse(
        await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure),
      );
      const after = await fetch(s.mcpUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(after.status).toBe(401);
    });
  });
}
