import { createHash, randomBytes } from "node:crypto";
import { type ConsentChoice, consentOverHttp, type OAuthServer } from "./oauth.ts";

/** A PKCE pair (S256). */
export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** Raw OAuth requests against a started server, for the rules tests. */
export function oauthHttp(s: OAuthServer) {
  const form = async (path: string, params: Record<string, string>) => {
    const response = await fetch(`${s.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const api = {
    async register(metadata: Record<string, unknown>) {
      const response = await fetch(`${s.origin}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(metadata),
      });
      return { status: response.status, headers: response.headers, body: await response.json() };
    },
    async client(redirectUris: string[] = ["http://127.0.0.1/callback"]) {
      const { body } = await api.register({ client_name: "Rules Client", redirect_uris: redirectUris });
      return body.client_id as string;
    },
    authorizeUrl(params: Record<string, string | undefined>) {
      const url = new URL(`${s.origin}/oauth/authorize`);
      for (const [name, value] of Object.entries(params))
        if (value !== undefined) url.searchParams.set(name, value);
      return url.href;
    },
    /** GET the authorize URL (signed in with `cookie` when given), redirects not followed. */
    async authorize(params: Record<string, string | undefined>, cookie?: string) {
      return fetch(api.authorizeUrl(params), { headers: cookie ? { cookie } : {}, redirect: "manual" });
    },
    /** A code through the consent (owner of the local organization by default). */
    async code(
      clientId: string,
      redirectUri: string,
      cookie: string,
      choice: Partial<ConsentChoice> = {},
      extra: Record<string, string> = {},
    ) {
      const { verifier, challenge } = pkce();
      const url = api.authorizeUrl({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "st-1",
        resource: s.mcpUrl,
        ...extra,
      });
      const back = await consentOverHttp(url, cookie, {
        organizationId: s.t.local.organization.id,
        ...choice,
      });
      return { code: back.searchParams.get("code")!, verifier, back };
    },
    token: (params: Record<string, string>) => form("/oauth/token", params),
    revoke: (params: Record<string, string>) => form("/oauth/revoke", params),
    async tokens(clientId: string, redirectUri: string, cookie: string, choice: Partial<ConsentChoice> = {}) {
      const { code, verifier } = await api.code(clientId, redirectUri, cookie, choice);
      const { body } = await api.token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: clientId,
        resource: s.mcpUrl,
      });
      return body as { access_token: string; refresh_token: string; scope: string };
    },
    /** One JSON-RPC request to /v1/mcp with `token`. */
    async mcp(token: string | undefined, method: string, params: unknown = {}, init: RequestInit = {}) {
      return fetch(s.mcpUrl, {
        method: "POST",
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        ...init,
      });
    },
  };
  return api;
}
