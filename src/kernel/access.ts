import type { ApiKeyRecord } from "../db/stores/api-keys.ts";
import type { Stores } from "../db/stores/index.ts";
import type { OrganizationRecord } from "../db/stores/organizations.ts";
import type { WebsiteRecord } from "../db/stores/websites.ts";
import { ApiError, notFound } from "./errors.ts";
import { isIdShaped } from "./ids.ts";
import { bestGrant, type Grant, grantsIn, grantsOnWebsite, type Principal } from "./principal.ts";
import { type AccessRule, grantHolds } from "./roles.ts";

/**
 * Scope checks, per the API contract (docs/api-contract.md, 401, 403 and 404): a website outside the principal's reach is `not_found` (existence never
 * leaks); an existing organization without a grant is `forbidden`; an unknown one `not_found`.
 * Every check records what it resolved, for the operation's audit entry.
 * A user may hold several grants in one organization (a membership and website editor grants): a website is
 * reached when any of them reaches it, with the highest of those roles; organization-level operations need an
 * organization-wide grant (the `admin` and `owner` access rules).
 */
export interface Access {
  organization(organizationId: string): Promise<OrganizationRecord>;
  website(websiteId: string): Promise<WebsiteRecord>;
  /** An API key of an organization the principal administers; anything else is `not_found`. */
  apiKey(apiKeyId: string): Promise<ApiKeyRecord>;
  /** The grant that covers `organizationId` and holds the operation's capability, if any. */
  grantIn(organizationId: string): Grant | undefined;
  readonly resolved: { organizationId?: string; websiteId?: string };
}

/** The scope checks of one call (`principal` calling `tool` in `stores`' unit of work). */
export function createAccess(
  principal: Principal,
  tool: { operationId: string; access: AccessRule },
  stores: Stores,
): Access {
  return new CallAccess(principal, tool, stores);
}

/** A class rather than closures built per call: a read allocates this object and its `resolved`. */
class CallAccess implements Access {
  readonly resolved: Access["resolved"] = {};

  constructor(
    readonly principal: Principal,
    readonly tool: { operationId: string; access: AccessRule },
    readonly stores: Stores,
  ) {}

  grantIn(organizationId: string): Grant | undefined {
    return bestGrant(this.principal.grants, organizationId, (grant) => this.holds(grant));
  }

  async organization(organizationId: string): Promise<OrganizationRecord> {
    const org = isIdShaped(organizationId) ? await this.stores.organizations.get(organizationId) : undefined;
    if (!org) throw notFound("Organization", organizationId);
    const grants = grantsIn(this.principal, organizationId);
    if (grants.length === 0) {
      throw new ApiError("forbidden", `This credential has no grant on organization '${organizationId}'.`, {
        suggestion: "Call {{organizations.list}} to see the organizations this credential can access.",
      });
    }
    if (!grants.some((grant) => this.holds(grant))) throw this.forbidden();
    this.resolved.organizationId = org.id;
    return org;
  }

  async website(websiteId: string): Promise<WebsiteRecord> {
    const website = isIdShaped(websiteId) ? await this.stores.websites.get(websiteId) : undefined;
    const grants = website ? grantsOnWebsite(this.principal, website.organizationId, website.id) : [];
    if (!website || grants.length === 0) {
      throw new ApiError("not_found", `Website '${websiteId}' was not found.`, {
        suggestion: "Call {{websites.list}} to see the websites this credential can access.",
      });
    }
    if (!grants.some((grant) => this.holds(grant))) throw this.forbidden();
    this.resolved.organizationId = website.organizationId;
    this.resolved.websiteId = website.id;
    return website;
  }

  async apiKey(apiKeyId: string): Promise<ApiKeyRecord> {
    const key = isIdShaped(apiKeyId) ? await this.stores.apiKeys.get(apiKeyId) : undefined;
    if (!key || !grantsIn(this.principal, key.organizationId).some((grant) => this.holds(grant))) {
      throw notFound("API key", apiKeyId);
    }
    this.resolved.organizationId = key.organizationId;
    return key;
  }

  private holds(grant: Grant): boolean {
    return grantHolds(grant.role, grant.websiteIds !== undefined, this.tool.access);
  }

  private forbidden(): ApiError {
    return new ApiError(
      "forbidden",
      `This credential's role does not include ${this.tool.operationId} in this organization.`,
      {
        suggestion:
          "Use a key whose role and access cover this operation, or ask an admin to change this key.",
      },
    );
  }
}
