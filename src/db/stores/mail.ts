import { and, asc, desc, eq, isNotNull, lte } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type MailRecord = Tables["mailOutbox"]["$inferSelect"];

/**
 * The mail outbox: every message the platform sent or tried to send. Queued mail (nextAttemptAt set) is delivered
 * off the request path and retried: it is claimed before each try so two nodes never send it twice at once.
 */
export interface MailStore {
  insert(mail: Tables["mailOutbox"]["$inferInsert"]): Promise<void>;
  markSent(id: string, sentAt: number): Promise<void>;
  markFailed(id: string, error: string): Promise<void>;
  /** Queued mail due at `now`, oldest due first. */
  due(now: number, limit: number): Promise<MailRecord[]>;
  /** Moves a queued message's next attempt from `from` to `until`; false when another worker moved it first. */
  claim(id: string, from: number, until: number): Promise<boolean>;
  /** Records a failed try: the error, one more attempt, and the next one (null: given up). */
  retryLater(id: string, error: string, attempts: number, nextAttemptAt: number | null): Promise<void>;
  /** Newest first; only mail to `toAddress` when given. */
  recent(limit: number, toAddress?: string): Promise<MailRecord[]>;
}

export function mailStore(db: Db, t: Tables): MailStore {
  return {
    async insert(mail) {
      await db.insert(t.mailOutbox).values(mail);
    },
    async markSent(id, sentAt) {
      await db
        .update(t.mailOutbox)
        .set({ sentAt, error: null, nextAttemptAt: null })
        .where(eq(t.mailOutbox.id, id));
    },
    async markFailed(id, error) {
      await db.update(t.mailOutbox).set({ error }).where(eq(t.mailOutbox.id, id));
    },
    async due(now, limit) {
      return db
        .select()
        .from(t.mailOutbox)
        .where(and(isNotNull(t.mailOutbox.nextAttemptAt), lte(t.mailOutbox.nextAttemptAt, now)))
        .orderBy(asc(t.mailOutbox.nextAttemptAt), asc(t.mailOutbox.id))
        .limit(limit);
    },
    async claim(id, from, until) {
      const claimed = await db
        .update(t.mailOutbox)
        .set({ nextAttemptAt: until })
        .where(and(eq(t.mailOutbox.id, id), eq(t.mailOutbox.nextAttemptAt, from)))
        .returning({ id: t.mailOutbox.id });
      return claimed.length === 1;
    },
    async retryLater(id, error, attempts, nextAttemptAt) {
      await db.update(t.mailOutbox).set({ error, attempts, nextAttemptAt }).where(eq(t.mailOutbox.id, id));
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
