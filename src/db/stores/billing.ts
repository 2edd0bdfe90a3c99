import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import type { Db, Tables } from "../types.ts";

export type BillingAccountRecord = Tables["billingAccounts"]["$inferSelect"];
export type CreditGrantRecord = Tables["creditGrants"]["$inferSelect"];
export type BillingEventRecord = Tables["billingEvents"]["$inferSelect"];
export type AiCreditReservationRecord = Tables["aiCreditReservations"]["$inferSelect"];

/** Billing accounts (one per organization), support credit grants and the provider's recorded events. */
export interface BillingStore {
  getAccount(organizationId: string): Promise<BillingAccountRecord | undefined>;
  /** Inserts or replaces the organization's account row. */
  putAccount(account: BillingAccountRecord): Promise<void>;
  /**
   * Locks the organization's account row until the transaction ends, creating it as `initial` when absent.
   * A no-op update takes PostgreSQL's row lock (concurrent lockers wait, then read the committed row); SQLite
   * serializes transactions anyway.
   */
  lockAccount(initial: BillingAccountRecord): Promise<void>;
  listGrants(organizationId: string): Promise<CreditGrantRecord[]>;
  insertGrant(grant: CreditGrantRecord): Promise<void>;
  /** Sets what is left of a support grant (spending AI credits). */
  setGrantRemaining(id: string, remaining: number): Promise<void>;
  /** Records AI credits held for work in flight (the caller adds them to the account's `aiCreditsReserved`). */
  insertReservation(reservation: AiCreditReservationRecord): Promise<void>;
  /** Deletes a reservation and returns it; undefined when it is gone (settled, released or expired already). */
  takeReservation(id: string): Promise<AiCreditReservationRecord | undefined>;
  /** Reservations whose `expiresAt` is at or before `now`, oldest expiry first, at most `limit`. */
  listExpiredReservations(now: number, limit: number): Promise<AiCreditReservationRecord[]>;
  recordEvent(event: BillingEventRecord): Promise<void>;
  listEvents(organizationId: string): Promise<BillingEventRecord[]>;
  /** Events of one type, newest first: those since `since` (ms, inclusive) when given, at most `limit`. */
  listEventsOfType(
    organizationId: string,
    type: string,
    options: { since?: number; limit?: number },
  ): Promise<BillingEventRecord[]>;
}

export function billingStore(db: Db, t: Tables): BillingStore {
  return {
    async getAccount(organizationId) {
      const [row] = await db
        .select()
        .from(t.billingAccounts)
        .where(eq(t.billingAccounts.organizationId, organizationId))
        .limit(1);
      return row;
    },
    async putAccount(account) {
      const { organizationId: _, ...rest } = account;
      await db
        .insert(t.billingAccounts)
        .values(account)
        .onConflictDoUpdate({ target: t.billingAccounts.organizationId, set: rest });
    },
    async lockAccount(initial) {
      const { organizationId } = initial;
      await db.insert(t.billingAccounts).values(initial).onConflictDoNothing();
      await db
        .update(t.billingAccounts)
        .set({ organizationId })
        .where(eq(t.billingAccounts.organizationId, organizationId));
    },
    async listGrants(organizationId) {
      return db
        .select()
        .from(t.creditGrants)
        .where(eq(t.creditGrants.organizationId, organizationId))
        .orderBy(asc(t.creditGrants.createdAt), asc(t.creditGrants.id));
    },
    async insertGrant(grant) {
      await db.insert(t.creditGrants).values(grant);
    },
    async setGrantRemaining(id, remaining) {
      await db.update(t.creditGrants).set({ remaining }).where(eq(t.creditGrants.id, id));
    },
    async insertReservation(reservation) {
      await db.insert(t.aiCreditReservations).values(reservation);
    },
    async takeReservation(id) {
      const [row] = await db
        .delete(t.aiCreditReservations)
        .where(eq(t.aiCreditReservations.id, id))
        .returning();
      return row;
    },
    async listExpiredReservations(now, limit) {
      const r = t.aiCreditReservations;
      return db
        .select()
        .from(r)
        .where(lte(r.expiresAt, now))
        .orderBy(asc(r.expiresAt), asc(r.id))
        .limit(limit);
    },
    async recordEvent(event) {
      await db.insert(t.billingEvents).values(event);
    },
    async listEvents(organizationId) {
      return db
        .select()
        .from(t.billingEvents)
        .where(eq(t.billingEvents.organizationId, organizationId))
        .orderBy(asc(t.billingEvents.createdAt), asc(t.billingEvents.id));
    },
    async listEventsOfType(organizationId, type, { since, limit }) {
      const e = t.billingEvents;
      const query = db
        .select()
        .from(e)
        .where(
          and(
            eq(e.organizationId, organizationId),
            eq(e.type, type),
            since === undefined ? undefined : gte(e.createdAt, since),
          ),
        )
        .orderBy(desc(e.createdAt), desc(e.id));
      return limit === undefined ? query : query.limit(limit);
    },
  };
}
