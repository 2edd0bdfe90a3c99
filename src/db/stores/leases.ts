import { and, eq, gt, lte, or, sql } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";
import { once } from "./prepared.ts";

/** Who holds a lease: a principal's type, id and label. */
export interface LeaseHolder {
  type: string;
  id: string;
  label: string;
}

export type LeaseRecord = Tables["websiteEditLeases"]["$inferSelect"];

export type AcquireResult =
  | { acquired: true; lease: LeaseRecord; renewed: boolean }
  | { acquired: false; lease: LeaseRecord };

/**
 * Edit leases, one row per website. A lease is live while `expiresAt > now`. Acquisition is one conditional
 * upsert, so of two nodes acquiring at once exactly one wins; a mutation's `hold` locks the row until its
 * transaction ends, so a lease cannot change hands under a running mutation.
 */
export interface LeaseStore {
  /**
   * Takes the lease when there is none, it expired, or `holder` already holds it (then it is renewed: same
   * lease id, new expiry). Otherwise reports the live lease of someone else.
   */
  acquire(
    websiteId: string,
    holder: LeaseHolder,
    options: { leaseId: string; now: number; expiresAt: number },
  ): Promise<AcquireResult>;
  get(websiteId: string): Promise<LeaseRecord | undefined>;
  /** The live lease `leaseId` of `holder`, locked for the rest of the transaction; undefined when it is not. */
  hold(
    websiteId: string,
    leaseId: string,
    holder: LeaseHolder,
    now: number,
  ): Promise<LeaseRecord | undefined>;
  /** Moves the expiry of the live lease `leaseId` of `holder`; undefined when it is not live or not theirs. */
  renew(
    websiteId: string,
    leaseId: string,
    holder: LeaseHolder,
    now: number,
    expiresAt: number,
  ): Promise<LeaseRecord | undefined>;
  /** Ends the lease `leaseId` of `holder` (live or expired); false when there was none to end. */
  release(websiteId: string, leaseId: string, holder: LeaseHolder): Promise<boolean>;
}

export function leaseStore(db: Db, t: Tables): LeaseStore {
  const l = t.websiteEditLeases;
  const byWebsite = once(() =>
    db
      .select()
      .from(l)
      .where(eq(l.websiteId, sql.placeholder("websiteId")))
      .prepare(),
  );
  const mine = (websiteId: string, leaseId: string, holder: LeaseHolder) =>
    and(
      eq(l.websiteId, websiteId),
      eq(l.leaseId, leaseId),
      eq(l.holderType, holder.type),
      eq(l.holderId, holder.id),
    );

  return {
    async acquire(websiteId, holder, { leaseId, now, expiresAt }) {
      const sameHolder = and(eq(l.holderType, holder.type), eq(l.holderId, holder.id));
      const liveAndMine = sql`(${l.expiresAt} > ${now} and ${sameHolder})`;
      for (let attempt = 0; attempt < 3; attempt++) {
        const [won] = await db
          .insert(l)
          .values({
            websiteId,
            leaseId,
            holderType: holder.type,
            holderId: holder.id,
            holderLabel: holder.label,
            acquiredAt: now,
            expiresAt,
          })
          .onConflictDoUpdate({
            target: l.websiteId,
            set: {
              leaseId: sql`case when ${liveAndMine} then ${l.leaseId} else excluded.lease_id end`,
              acquiredAt: sql`case when ${liveAndMine} then ${l.acquiredAt} else excluded.acquired_at end`,
              holderType: sql`excluded.holder_type`,
              holderId: sql`excluded.holder_id`,
              holderLabel: sql`excluded.holder_label`,
              expiresAt: sql`excluded.expires_at`,
            },
            setWhere: or(lte(l.expiresAt, now), sameHolder),
          })
          .returning();
        if (won) return { acquired: true, lease: won, renewed: won.leaseId !== leaseId };
        const current = (await byWebsite().execute({ websiteId }))[0];
        if (current) return { acquired: false, lease: current };
        // Released between the upsert and the read: try again.
      }
      throw new Error(`lease of ${websiteId} kept changing hands`);
    },
    async get(websiteId) {
      return (await byWebsite().execute({ websiteId }))[0];
    },
    async hold(websiteId, leaseId, holder, now) {
      // A no-op update: it takes the row lock (PostgreSQL) until the transaction ends.
      const [held] = await db
        .update(l)
        .set({ expiresAt: sql`${l.expiresAt}` })
        .where(and(mine(websiteId, leaseId, holder), gt(l.expiresAt, now)))
        .returning();
      return held;
    },
    async renew(websiteId, leaseId, holder, now, expiresAt) {
      const [renewed] = await db
        .update(l)
        .set({ expiresAt })
        .where(and(mine(websiteId, leaseId, holder), gt(l.expiresAt, now)))
        .returning();
      return renewed;
    },
    async release(websiteId, leaseId, holder) {
      const released = await db
        .delete(l)
        .where(mine(websiteId, leaseId, holder))
        .returning({ leaseId: l.leaseId });
      return released.length > 0;
    },
  };
}
