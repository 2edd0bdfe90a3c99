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
