import type { Stores } from "../db/stores/index.ts";
import type { MembershipRecord, UserRecord } from "../db/stores/organizations.ts";
import type { WebsiteEditorRecord } from "../db/stores/website-editors.ts";
import type { Grant, Principal } from "../kernel/principal.ts";
import type { Role } from "../kernel/roles.ts";

/**
 * The principal a signed-in user acts as: one organization-wide grant per membership, then one grant per
 * organization and editor role listing the websites the user edits there; users share one rate-limit budget.
 */
export function principalOfUser(
  user: UserRecord,
  memberships: readonly MembershipRecord[],
  editors: readonly WebsiteEditorRecord[] = [],
): Principal {
  const grants: Grant[] = memberships.map((m) => ({
    organizationId: m.organizationId,
    role: m.role as Role,
  }));
  const byOrgAndRole = new Map<string, { organizationId: string; role: Role; websiteIds: string[] }>();
  for (const editor of editors) {
    const key = `${editor.organizationId}\u0000${editor.role}`;
    const grant = byOrgAndRole.get(key) ?? {
      organizationId: editor.organizationId,
      role: editor.role as Role,
      websiteIds: [],
    };
    grant.websiteIds.push(editor.websiteId);
    byOrgAndRole.set(key, grant);
  }
  grants.push(...byOrgAndRole.values());
  return {
    type: "user",
    id: user.id,
    userId: user.id,
    label: user.name,
    grants,
    bucketKey: `user:${user.id}`,
  };
}

/**
 * The user's principal as the database says now (memberships and website editor grants), or undefined for an
 * unknown user. Sessions and OAuth tokens resolve through this on every request, so a removed member or a
 * revoked editor loses access at once.
 */
export async function loadUserPrincipal(stores: Stores, userId: string): Promise<Principal | undefined> {
  const user = await stores.organizations.getUser(userId);
  if (!user) return undefined;
  const memberships = await stores.organizations.membershipsOfUser(user.id);
  return principalOfUser(user, memberships, await stores.websiteEditors.ofUser(user.id));
}
