import { and, eq, type SQL, sql } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { afterOldest, oldestFirst } from "./keyset.ts";
import type { UserRecord } from "./organizations.ts";

/** A membership with the member's user, as the members list shows it. */
export interface MemberRecord {
  organizationId: string;
  userId: string;
  email: string;
  name: string;
  role: string;
  /** When the membership was created (ms). */
  createdAt: number;
}

/** Members of organizations (memberships joined with their users) and user lookups by email. */
export interface MemberStore {
  /** Members oldest first (joinedAt, then user id); `after` is the last row of the previous page. */
  list(organizationId: string, options: { after?: KeysetPosition; limit: number }): Promise<MemberRecord[]>;
  get(organizationId: string, userId: string): Promise<MemberRecord | undefined>;
  updateRole(organizationId: string, userId: string, role: string): Promise<void>;
  remove(organizationId: string, userId: string): Promise<void>;
  countWithRole(organizationId: string, role: string): Promise<number>;
  /** The user with this email, compared case-insensitively. */
  userByEmail(email: string): Promise<UserRecord | undefined>;
}

export function memberStore(db: Db, t: Tables): MemberStore {
  const m = t.memberships;
  const u = t.users;
  const columns = {
    organizationId: m.organizationId,
    userId: m.userId,
    email: u.email,
    name: u.name,
    role: m.role,
    createdAt: m.createdAt,
  };
  const select = (where: SQL | undefined) =>
    db.select(columns).from(m).innerJoin(u, eq(u.id, m.userId)).where(where);
  return {
    async list(organizationId, { after, limit }) {
      return select(and(eq(m.organizationId, organizationId), afterOldest(m.createdAt, m.userId, after)))
        .orderBy(...oldestFirst(m.createdAt, m.userId))
        .limit(limit);
    },
    async get(organizationId, userId) {
      const [row] = await select(and(eq(m.organizationId, organizationId), eq(m.userId, userId))).limit(1);
      return row;
    },
    async updateRole(organizationId, userId, role) {
      await db
        .update(m)
        .set({ role })
        .where(and(eq(m.organizationId, organizationId), eq(m.userId, userId)));
    },
    async remove(organizationId, userId) {
      await db.delete(m).where(and(eq(m.organizationId, organizationId), eq(m.userId, userId)));
    },
    async countWithRole(organizationId, role) {
      return db.$count(m, and(eq(m.organizationId, organizationId), eq(m.role, role)));
    },
    async userByEmail(email) {
      const [row] = await db.select().from(u).where(sql`lower(${u.email}) = ${email.toLowerCase()}`).limit(1);
      return row;
    },
  };
}
