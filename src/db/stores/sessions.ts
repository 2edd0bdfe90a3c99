import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import type { UserRecord } from "./organizations.ts";

/** A signed-in browser session; `id` is the SHA-256 (hex) of the cookie's secret, never the secret. */
export type SessionRecord = Tables["sessions"]["$inferSelect"];

/** A single-use password reset link; `id` is the SHA-256 (hex) of the emailed secret. */
export type PasswordResetRecord = Tables["passwordResets"]["$inferSelect"];

/** Browser sessions, password reset links and the user credentials they act on. */
export interface SessionStore {
  insert(session: SessionRecord): Promise<void>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Slides the session: records activity and moves the expiry. */
  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Ends every session of a user (after a password reset); returns how many ended. */
  deleteForUser(userId: string): Promise<number>;
  insertReset(reset: PasswordResetRecord): Promise<void>;
  getReset(id: string): Promise<PasswordResetRecord | undefined>;
  /** Marks an unused reset as used; false when it was already used (a concurrent use lost). */
  useReset(id: string, usedAt: number): Promise<boolean>;
  /** The user with this (already normalized, lower-case) email. */
  userByEmail(email: string): Promise<UserRecord | undefined>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
}

export function sessionStore(db: Db, t: Tables): SessionStore {
  return {
    async insert(session) {
      await db.insert(t.sessions).values(session);
    },
    async get(id) {
      const [row] = await db.select().from(t.sessions).where(eq(t.sessions.id, id)).limit(1);
      return row;
    },
    async touch(id, lastSeenAt, expiresAt) {
      await db.update(t.sessions).set({ lastSeenAt, expiresAt }).where(eq(t.sessions.id, id));
    },
    async delete(id) {
      await db.delete(t.sessions).where(eq(t.sessions.id, id));
    },
    async deleteForUser(userId) {
      const rows = await db
        .delete(t.sessions)
        .where(eq(t.sessions.userId, userId))
        .returning({ id: t.sessions.id });
      return rows.length;
    },
    async insertReset(reset) {
      await db.insert(t.passwordResets).values(reset);
    },
    async getReset(id) {
      const [row] = await db.select().from(t.passwordResets).where(eq(t.passwordResets.id, id)).limit(1);
      return row;
    },
    async useReset(id, usedAt) {
      const rows = await db
        .update(t.passwordResets)
        .set({ usedAt })
        .where(and(eq(t.passwordResets.id, id), isNull(t.passwordResets.usedAt)))
        .returning({ id: t.passwordResets.id });
      return rows.length === 1;
    },
    async userByEmail(email) {
      const [row] = await db.select().from(t.users).where(eq(t.users.email, email)).limit(1);
      return row;
    },
    async setPasswordHash(userId, passwordHash) {
      await db.update(t.users).set({ passwordHash }).where(eq(t.users.id, userId));
    },
  };
}
