import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import { once } from "./prepared.ts";

export type OrganizationRecord = Tables["organizations"]["$inferSelect"];

export type MembershipRecord = Tables["memberships"]["$inferSelect"];

export type UserRecord = Tables["users"]["$inferSelect"];

/** Organizations, their users and memberships. */
export interface OrganizationStore {
  insert(org: OrganizationRecord): Promise<void>;
  get(id: string): Promise<OrganizationRecord | undefined>;
  update(id: string, patch: Partial<Pick<OrganizationRecord, "name">> & { updatedAt: number }): Promise<void>;
  listByIds(ids: readonly string[]): Promise<OrganizationRecord[]>;
  /** The oldest organization, if any (the local owner's, in an embedded deployment). */
  first(): Promise<OrganizationRecord | undefined>;
  insertUser(user: UserRecord): Promise<void>;
  getUser(id: string): Promise<UserRecord | undefined>;
  insertMembership(membership: MembershipRecord): Promise<void>;
  membershipsOfUser(userId: string): Promise<MembershipRecord[]>;
  /** Members of an organization holding `role`, oldest first. */
  membersWithRole(organizationId: string, role: string): Promise<MembershipRecord[]>;
}

export function organizationStore(db: Db, t: Tables): OrganizationStore {
  const byId = once(() =>
    db
      .select()
      .from(t.organizations)
      .where(eq(t.organizations.id, sql.placeholder("id")))
      .prepare(),
  );
  return {
    async insert(org) {
      await db.insert(t.organizations).values(org);
    },
    async get(id) {
      return (await byId().execute({ id }))[0];
    },
    async update(id, patch) {
      await db.update(t.organizations).set(patch).where(eq(t.organizations.id, id));
    },
    async listByIds(ids) {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(t.organizations)
        .where(inArray(t.organizations.id, [...ids]))
        .orderBy(asc(t.organizations.createdAt), asc(t.organizations.id));
    },
    async first() {
      const [row] = await db
        .select()
        .from(t.organizations)
        .orderBy(asc(t.organizations.createdAt), asc(t.organizations.id))
        .limit(1);
      return row;
    },
    async insertUser(user) {
      await db.insert(t.users).values(user);
    },
    async getUser(id) {
      const [row] = await db.select().from(t.users).where(eq(t.users.id, id)).limit(1);
      return row;
    },
    async insertMembership(membership) {
      await db.insert(t.memberships).values(membership);
    },
    async membersWithRole(organizationId, role) {
      return db
        .select()
        .from(t.memberships)
        .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.role, role)))
        .orderBy(asc(t.memberships.createdAt));
    },
    async membershipsOfUser(userId) {
      return db.select().from(t.memberships).where(eq(t.memberships.userId, userId));
    },
  };
}
