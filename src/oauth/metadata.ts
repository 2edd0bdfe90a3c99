import type { Platform } from "../kernel/platform.ts";
import { issuerOf, resourceOf, SCOPES } from "./settings.ts";

/** Protected Resource Metadata of the MCP resource (RFC 9728). */
export function protectedResourceMetadata(platform: Platform) {
  return {
    resource: resourceOf(platform),
    authorization_servers: [issuerOf(platform)],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Sitewright",
    resource_documentation: `${issuerOf(platform)}/`,
  };
}

/** Authorization Server Metadata (RFC 8414), also served as an OpenID-style configuration for discovery. */
export function authorizationServerMetadata(platform: Platform) {
  const issuer = issuerOf(platform);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...SCOPES],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}
