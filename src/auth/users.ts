import type { Stores } from "../db/stores/index.ts";
import type { MembershipRecord, UserRecord } from "../db/stores/organizations.ts";
import type { Role } from "../kernel/capabilities.ts";
import type { Principal } from "../kernel/principal.ts";

/** The principal a signed-in user acts as: one grant per membership; users share one rate-limit budget. */
export function principalOfUser(user: UserRecord, memberships: readonly MembershipRecord[]): Principal {
  return {
    type: "user",
    id: user.id,
    userId: user.id,
    label: user.name,
    grants: memberships.map((m) => ({ organizationId: m.organizationId, role: m.role as Role })),
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
  return principalOfUser(user, await stores.organizations.membershipsOfUser(user.id));
}
