import { and, eq, isNull } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

/** A single-use email verification link; `id` is the SHA-256 (hex) of the emailed secret, never the secret. */
export interface EmailVerificationRecord {
  id: string;
  userId: string;
  /** The address the link proves (a link for an address the user no longer has proves nothing). */
  email: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** Email verification links and the verified mark they set on users. */
export interface EmailVerificationStore {
  insert(record: EmailVerificationRecord): Promise<void>;
  get(id: string): Promise<EmailVerificationRecord | undefined>;
  /** Marks an unused link as used; false when it was already used (a concurrent use lost). */
  use(id: string, usedAt: number): Promise<boolean>;
  /** Deletes the user's unused links (a resent link replaces the earlier ones). */
  deleteUnusedForUser(userId: string): Promise<void>;
  /** Records that the user proved their address; false when it was already verified. */
  markVerified(userId: string, at: number): Promise<boolean>;
}

export function emailVerificationStore(db: Db, t: Tables): EmailVerificationStore {
  const v = t.emailVerifications;
  return {
    async insert(record) {
      await db.insert(v).values(record);
    },
    async get(id) {
      const [row] = await db.select().from(v).where(eq(v.id, id)).limit(1);
      return row;
    },
    async use(id, usedAt) {
      const rows = await db
        .update(v)
        .set({ usedAt })
        .where(and(eq(v.id, id), isNull(v.usedAt)))
        .returning({ id: v.id });
      return rows.length === 1;
    },
    async deleteUnusedForUser(userId) {
      await db.delete(v).where(and(eq(v.userId, userId), isNull(v.usedAt)));
    },
    async markVerified(userId, at) {
      const rows = await db
        .update(t.users)
        .set({ emailVerifiedAt: at })
        .where(and(eq(t.users.id, userId), isNull(t.users.emailVerifiedAt)))
        .returning({ id: t.users.id });
      return rows.length === 1;
    },
  };
}
