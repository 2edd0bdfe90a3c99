import { principalOfUser } from "../../auth/users.ts";
import type { Database } from "../../db/database.ts";
import type { Stores } from "../../db/stores/index.ts";
import type { OrganizationRecord, UserRecord } from "../../db/stores/organizations.ts";
import { newId } from "../../kernel/ids.ts";
import type { Principal } from "../../kernel/principal.ts";

/** The address of the local owner `sitewright dev` creates. */
export const LOCAL_OWNER_EMAIL = "owner@localhost";

export interface LocalOwner {
  organization: OrganizationRecord;
  owner: UserRecord;
  principal: Principal;
  created: boolean;
}

/** Creates an organization with a new user as its owner (verified or not, as the caller knows). */
export async function createOrganizationWithOwner(
  stores: Stores,
  organizationName: string,
  owner: { email: string; name: string; emailVerifiedAt: number | null },
  now: number,
): Promise<{ organization: OrganizationRecord; owner: UserRecord }> {
  const organization = { id: newId(), name: organizationName, createdAt: now, updatedAt: now };
  const user: UserRecord = { id: newId(), ...owner, passwordHash: null, createdAt: now };
  await stores.organizations.insert(organization);
  await stores.organizations.insertUser(user);
  await stores.organizations.insertMembership({
    organizationId: organization.id,
    userId: user.id,
    role: "owner",
    createdAt: now,
  });
  return { organization, owner: user };
}

/** The principal of an organization's oldest owner. */
export async function ownerOf(stores: Stores, organization: OrganizationRecord): Promise<LocalOwner> {
  const [membership] = await stores.organizations.membersWithRole(organization.id, "owner");
  const owner = membership && (await stores.organizations.getUser(membership.userId));
  if (!owner) throw new Error(`Organization ${organization.id} has no owner`);
  const principal = principalOfUser(owner, await stores.organizations.membershipsOfUser(owner.id));
  return { organization, owner, principal, created: false };
}

/**
 * The embedded deployment's owner: on a fresh database creates an organization and its owner user (verified:
 * the operator of the machine is the owner, and `owner@localhost` receives no mail); afterwards returns the oldest
 * organization's owner.
 */
export async function ensureLocalOwner(db: Database, now = Date.now()): Promise<LocalOwner> {
  return db.transaction(async (stores) => {
    const existing = await stores.organizations.first();
    if (existing) return ownerOf(stores, existing);
    const { organization } = await createOrganizationWithOwner(
      stores,
      "My organization",
      { email: LOCAL_OWNER_EMAIL, name: "Local owner", emailVerifiedAt: now },
      now,
    );
    return { ...(await ownerOf(stores, organization)), created: true };
  });
}
