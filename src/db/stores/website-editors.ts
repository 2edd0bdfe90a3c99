import { and, asc, eq } from "drizzle-orm";
import type { KeysetPosition } from "../../kernel/cursor.ts";
import type { Db, Tables } from "../types.ts";
import { afterOldest, oldestFirst } from "./keyset.ts";

/** A user's editor grant on one website (no organization membership needed). */
export type WebsiteEditorRecord = Tables["websiteEditors"]["$inferSelect"];

/** An editor grant with the editor's user, as the editors list shows it. */
export interface WebsiteEditorEntry extends WebsiteEditorRecord {
  email: string;
  name: string;
}

/** Website editor grants. */
export interface WebsiteEditorStore {
  /** Inserts the grant, or changes the role (and pending state) of the user's existing grant on that website. */
  upsert(record: WebsiteEditorRecord): Promise<void>;
  get(websiteId: string, userId: string): Promise<WebsiteEditorEntry | undefined>;
  /** Editors of a website oldest first (createdAt, then user id). */
  list(websiteId: string, options: { after?: KeysetPosition; limit: number }): Promise<WebsiteEditorEntry[]>;
  /** The grants that give the user access (never the ones pending their email verification). */
  ofUser(userId: string): Promise<WebsiteEditorRecord[]>;
  /** Makes the user's pending grants apply (their email was just verified); returns how many did. */
  applyPending(userId: string): Promise<number>;
  remove(websiteId: string, userId: string): Promise<void>;
  /** Removes every grant of the user on websites of the organization (a removed member loses all access). */
  removeUserFromOrganization(organizationId: string, userId: string): Promise<number>;
}

export function websiteEditorStore(db: Db, t: Tables): WebsiteEditorStore {
  const e = t.websiteEditors;
  const u = t.users;
  const entry = () =>
    db
      .select({
        websiteId: e.websiteId,
        userId: e.userId,
        organizationId: e.organizationId,
        role: e.role,
        createdAt: e.createdAt,
        createdByType: e.createdByType,
        createdById: e.createdById,
        pendingVerification: e.pendingVerification,
        email: u.email,
        name: u.name,
      })
      .from(e)
      .innerJoin(u, eq(u.id, e.userId));
  return {
    async upsert(record) {
      await db
        .insert(e)
        .values(record)
        .onConflictDoUpdate({
          target: [e.websiteId, e.userId],
          set: { role: record.role, pendingVerification: record.pendingVerification },
        });
    },
    async get(websiteId, userId) {
      const [row] = await entry()
        .where(and(eq(e.websiteId, websiteId), eq(e.userId, userId)))
        .limit(1);
      return row;
    },
    async list(websiteId, { after, limit }) {
      return entry()
        .where(and(eq(e.websiteId, websiteId), afterOldest(e.createdAt, e.userId, after)))
        .orderBy(...oldestFirst(e.createdAt, e.userId))
        .limit(limit);
    },
    async ofUser(userId) {
      return db
        .select()
        .from(e)
        .where(and(eq(e.userId, userId), eq(e.pendingVerification, false)))
        .orderBy(asc(e.createdAt), asc(e.websiteId));
    },
    async applyPending(userId) {
      const applied = await db
        .update(e)
        .set({ pendingVerification: false })
        .where(and(eq(e.userId, userId), eq(e.pendingVerification, true)))
        .returning({ websiteId: e.websiteId });
      return applied.length;
    },
    async remove(websiteId, userId) {
      await db.delete(e).where(and(eq(e.websiteId, websiteId), eq(e.userId, userId)));
    },
    async removeUserFromOrganization(organizationId, userId) {
      const removed = await db
        .delete(e)
        .where(and(eq(e.organizationId, organizationId), eq(e.userId, userId)))
        .returning({ websiteId: e.websiteId });
      return removed.length;
    },
  };
}
