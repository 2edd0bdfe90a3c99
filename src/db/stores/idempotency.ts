import { and, eq, lt } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type IdempotencyClaim =
  | { state: "claimed" }
  | { state: "in_flight"; requestHash: string }
  | { state: "completed"; requestHash: string; response: unknown };

/** Idempotency records: the first request with a key claims it; later ones replay or are refused. */
export interface IdempotencyStore {
  /** Claims `key` for a new request, or reports the earlier request that holds it. */
  claim(key: string, requestHash: string, now: number, ttlMs: number): Promise<IdempotencyClaim>;
  complete(key: string, response: unknown): Promise<void>;
  /** Frees a key whose request failed, so a retry runs again. */
  release(key: string): Promise<void>;
}

export function idempotencyStore(db: Db, t: Tables): IdempotencyStore {
  const r = t.idempotencyRecords;
  return {
    async claim(key, requestHash, now, ttlMs) {
      await db.delete(r).where(and(eq(r.key, key), lt(r.expiresAt, now)));
      const inserted = await db
        .insert(r)
        .values({
          key,
          requestHash,
          state: "in_flight",
          response: null,
          createdAt: now,
          expiresAt: now + ttlMs,
        })
        .onConflictDoNothing()
        .returning({ key: r.key });
      if (inserted.length) return { state: "claimed" };
      const [row] = await db.select().from(r).where(eq(r.key, key)).limit(1);
      if (!row) return this.claim(key, requestHash, now, ttlMs);
      return row.state === "completed"
        ? { state: "completed", requestHash: row.requestHash, response: row.response }
        : { state: "in_flight", requestHash: row.requestHash };
    },
    async complete(key, response) {
      await db.update(r).set({ state: "completed", response }).where(eq(r.key, key));
    },
    async release(key) {
      await db.delete(r).where(eq(r.key, key));
    },
  };
}
