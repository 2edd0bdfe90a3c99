import type { Role } from "./capabilities.ts";

/**
 * What a principal may reach in one organization: the role, and either the whole organization
 * (`websiteIds` undefined) or only the listed websites.
 */
export interface Grant {
  organizationId: string;
  role: Role;
  websiteIds?: readonly string[];
}

/**
 * The authenticated caller of an operation. API keys carry one grant; users carry one per membership;
 * OAuth access tokens (a later transport) carry the user's grants narrowed to what was consented.
 */
export interface Principal {
  type: "api_key" | "user" | "oauth_token";
  /** Id of the key, the user, or the token's grant. */
  id: string;
  /** The human behind the principal, when there is one. */
  userId?: string;
  /** Name for audit entries and lease holders. */
  label: string;
  grants: readonly Grant[];
  /** Rate-limit bucket owner: keys have their own buckets; users and their tokens share the user's. */
  bucketKey: string;
  /** True when the principal may only read (for example a read-only OAuth consent). */
  readOnly?: boolean;
}

export function grantFor(principal: Principal, organizationId: string): Grant | undefined {
  return principal.grants.find((grant) => grant.organizationId === organizationId);
}

export function grantReachesWebsite(grant: Grant, websiteId: string): boolean {
  return grant.websiteIds === undefined || grant.websiteIds.includes(websiteId);
}
