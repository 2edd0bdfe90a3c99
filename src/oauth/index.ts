import type { H3 } from "h3";
import type { Platform } from "../kernel/platform.ts";
import { authorizeDecision, authorizePage } from "./authorize.ts";
import { oauthJson, preflight } from "./http.ts";
import { authorizationServerMetadata, protectedResourceMetadata } from "./metadata.ts";
import { registerClient } from "./register.ts";
import { revokeEndpoint, tokenEndpoint } from "./token.ts";

/** The OAuth 2.1 authorization server of the MCP resource and its metadata documents. */
export function registerOAuth(app: H3, platform: Platform): void {
  const cors = (path: string) => app.options(path, preflight);
  const resourceMetadata = () =>
    oauthJson(protectedResourceMetadata(platform), 200, { "cache-control": "public, max-age=300" });
  const serverMetadata = () =>
    oauthJson(authorizationServerMetadata(platform), 200, { "cache-control": "public, max-age=300" });

  for (const path of [
    "/.well-known/oauth-protected-resource/v1/mcp",
    "/.well-known/oauth-protected-resource",
  ]) {
    app.get(path, resourceMetadata);
    cors(path);
  }
  for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
    app.get(path, serverMetadata);
    cors(path);
  }
  app.get("/oauth/authorize", (event) => authorizePage(platform, event));
  app.post("/oauth/authorize", (event) => authorizeDecision(platform, event));
  app.post("/oauth/token", (event) => tokenEndpoint(platform, event));
  app.post("/oauth/register", (event) => registerClient(platform, event));
  app.post("/oauth/revoke", (event) => revokeEndpoint(platform, event));
  for (const path of ["/oauth/token", "/oauth/register", "/oauth/revoke"]) cors(path);
}
