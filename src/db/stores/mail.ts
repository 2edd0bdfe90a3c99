import { desc, eq } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type MailRecord = Tables["mailOutbox"]["$inferSelect"];

/** The mail outbox: every message the platform sent or tried to send. */
export interface MailStore {
  insert(mail: MailRecord): Promise<void>;
  markSent(id: string, sentAt: number): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  /** Newest first; only mail to `toAddress` when given. */
  recent(limit: number, toAddress?: string): Promise<MailRecord[]>;
}

export function mailStore(db: Db, t: Tables): MailStore {
  return {
    async insert(mail) {
      await db.insert(t.mailOutbox).values(mail);
    },
    async markSent(id, sentAt) {
      await db.update(t.mailOutbox).set({ sentAt, error: null }).where(eq(t.mailOutbox.id, id));
    },
    async markFailed(id, error) {
      await db.update(t.mailOutbox).set({ error }).where(eq(t.mailOutbox.id, id));
    },
    async recent(limit, toAddress) {
      return db
        .select()
        .from(t.mailOutbox)
        .where(toAddress === undefined ? undefined : eq(t.mailOutbox.toAddress, toAddress))
        .orderBy(desc(t.mailOutbox.createdAt), desc(t.mailOutbox.id))
        .limit(limit);
    },
  };
}
