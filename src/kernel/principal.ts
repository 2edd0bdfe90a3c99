import { type Role, roleRank } from "./roles.ts";
import type { Toolset } from "./toolsets.ts";

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
 * OAuth access tokens (a later transport) carry the user's grants narrowed to what was consented. A visitor is
 * the signed-out caller of the dashboard's sign-up page: no grant, and only the operations meant for it.
 */
export interface Principal {
  type: "api_key" | "user" | "oauth_token" | "visitor";
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
  /** The toolsets this connection picked (MCP URL, header or OAuth consent): tools of other toolsets are out of reach. */
  toolsets?: readonly Toolset[];
}

/**
 * The principal's main grant in an organization: its organization-wide grant when it has one, else its
 * highest website-limited grant. A user may hold several grants in one organization (a membership plus
 * website editor grants); API keys hold one.
 */
export function grantFor(principal: Principal, organizationId: string): Grant | undefined {
  return bestGrant(principal.grants, organizationId);
}

/** Every grant the principal holds in an organization. */
export function grantsIn(principal: Principal, organizationId: string): Grant[] {
  return principal.grants.filter((grant) => grant.organizationId === organizationId);
}

/**
 * Organization-wide grants first, then the highest role (the first of equals wins); with `organizationId`, among the
 * grants in that organization that `accept` takes (one pass, no filtered copy).
 */
export function bestGrant(
  grants: readonly Grant[],
  organizationId?: string,
  accept?: (grant: Grant) => boolean,
): Grant | undefined {
  let best: Grant | undefined;
  for (const grant of grants) {
    if (organizationId !== undefined && grant.organizationId !== organizationId) continue;
    if (accept && !accept(grant)) continue;
    if (!best || grantScore(grant) > grantScore(best)) best = grant;
  }
  return best;
}

function grantScore(grant: Grant): number {
  return (grant.websiteIds === undefined ? 10 : 0) + roleRank(grant.role);
}

/** The grants of the principal that reach a website of an organization (their highest role is the effective one). */
export function grantsOnWebsite(principal: Principal, organizationId: string, websiteId: string): Grant[] {
  return grantsIn(principal, organizationId).filter((grant) => grantReachesWebsite(grant, websiteId));
}

export function grantReachesWebsite(grant: Grant, websiteId: string): boolean {
  return grant.websiteIds === undefined || grant.websiteIds.includes(websiteId);
}

/** The signed-out visitor of a dashboard page (sign-up), rate-limited per client address. */
export function visitorPrincipal(ip: string): Principal {
  return {
    type: "visitor",
    id: "visitor",
    label: "Visitor (signed out)",
    grants: [],
    bucketKey: `visitor:${ip}`,
  };
}
