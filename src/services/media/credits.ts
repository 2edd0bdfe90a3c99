import type { Database } from "../../db/handle.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { type Account, updateAccount } from "../billing/account.ts";
import { projectState, spendableGrants } from "../billing/state.ts";

/** AI credits one generated image costs. */
export const CREDITS_PER_IMAGE = 1;

/** The longest prompt excerpt a billing event keeps (the billing page lists it beside the credits). */
const PROMPT_EXCERPT = 120;

const refusal = (message: string) =>
  new ApiError("forbidden", message, {
    suggestion:
      "Ask an organization owner to buy credits with {{billing.usageTopUp.checkout}} or raise the monthly allowance with {{billing.aiCreditTier.update}}; {{billing.state.get}} shows what is left.",
  });

/** Refuses when the organization cannot spend `amount` AI credits now (past due, or not enough left). */
function check(status: string, remaining: number, unlimited: boolean, amount: number): void {
  if (status === "billing_grace") {
    throw refusal("Billing is past due: AI credits cannot be spent until the open invoice is paid.");
  }
  if (!unlimited && remaining < amount) {
    throw refusal(`This needs ${amount} AI credits and the organization has ${remaining} left.`);
  }
}

/**
 * How long a reservation holds its credits: comfortably above the image model's time limit (two minutes) plus
 * storing the images. Past it, housekeeping releases the reservation, so a process that died between reserve
 * and settle strands nothing for longer than this plus one housekeeping interval.
 */
export const RESERVATION_TTL_MS = 30 * 60 * 1000;

/**
 * Reserves `amount` AI credits before slow, paid work (a call to an image model) in one unit of work of its own,
 * with the billing account row locked: the meter's `remaining` already subtracts every open reservation, so two
 * concurrent generations can never hold more than is left. Refuses with `forbidden` (and reserves nothing) when
 * too few are left or billing is past due. Returns the reservation's id: settle it with `settleAiCredits`, or
 * give it back with `releaseAiCredits`; one neither settled nor released expires after RESERVATION_TTL_MS.
 */
export function reserveAiCredits(
  db: Database,
  organizationId: string,
  now: number,
  amount: number,
): Promise<string> {
  return db.transaction((stores) =>
    updateAccount(stores, organizationId, now, async (account) => {
      const state = projectState(account, await stores.billing.listGrants(organizationId), 0, now);
      const meter = state.meters.ai_credits;
      check(state.status, meter.remaining, meter.unlimited, amount);
      const id = newId();
      await stores.billing.insertReservation({
        id,
        organizationId,
        credits: amount,
        expiresAt: now + RESERVATION_TTL_MS,
        createdAt: now,
      });
      return { account: { ...account, aiCreditsReserved: account.aiCreditsReserved + amount }, result: id };
    }),
  );
}

/** Deletes the reservation and takes its credits off the account's held total (null when it was gone already). */
async function dropReservation(
  stores: Stores,
  account: Account,
  reservationId: string,
): Promise<Account | null> {
  const held = await stores.billing.takeReservation(reservationId);
  if (!held) return null;
  return { ...account, aiCreditsReserved: Math.max(0, account.aiCreditsReserved - held.credits) };
}

/**
 * Gives back a reservation whose work failed (the provider's error, the handler's, or a crash that housekeeping
 * found expired). Nothing is spent. Returns whether the reservation was still held.
 */
export function releaseAiCredits(
  db: Database,
  organizationId: string,
  now: number,
  reservationId: string,
): Promise<boolean> {
  return db.transaction((stores) =>
    updateAccount(stores, organizationId, now, async (account) => {
      const next = await dropReservation(stores, account, reservationId);
      return { account: next ?? undefined, result: next !== null };
    }),
  );
}

/**
 * Housekeeping: releases every reservation past its expiry (work a crashed or stopped process never settled),
 * each with its account row locked as a release takes it. Returns how many were released.
 */
export async function releaseExpiredAiCredits(db: Database, now: number): Promise<number> {
  let released = 0;
  for (;;) {
    const expired = await db.read((stores) => stores.billing.listExpiredReservations(now, 100));
    for (const reservation of expired) {
      if (await releaseAiCredits(db, reservation.organizationId, now, reservation.id)) released++;
    }
    if (expired.length < 100) return released;
  }
}

/** What a settled generation spent, for the `ai_credits.spent` billing event the billing page lists. */
export interface CreditUse {
  /** The reservation taken before the work (`reserveAiCredits`); what it held beyond `spent` goes back. */
  reservationId: string;
  /** Credits the produced images cost (at most `reserved`). */
  spent: number;
  /** The operation that spent them. */
  reason: string;
  websiteId: string;
  prompt: string;
  images: number;
}

/**
 * Settles a reservation in the caller's unit of work (the handler's transaction, so a rollback undoes it): the
 * reservation goes (if housekeeping already released it as expired, the spend is still recorded), and `spent` credits are taken in the contract's order: the monthly allowance, then support
 * grants (soonest expiry first), then prepaid credits. A held reservation is honoured even if billing went past
 * due meanwhile. Records an `ai_credits.spent` billing event with where the credits came from and what bought them.
 */
export async function settleAiCredits(
  stores: Stores,
  organizationId: string,
  now: number,
  use: CreditUse,
): Promise<void> {
  await updateAccount(stores, organizationId, now, async (account) => {
    const grants = await stores.billing.listGrants(organizationId);
    const meter = projectState(account, grants, 0, now).meters.ai_credits;
    let left = use.spent;
    const fromIncluded = meter.unlimited ? left : Math.min(left, meter.remainingIncluded);
    left -= fromIncluded;
    const fromGrants: { id: string; credits: number }[] = [];
    for (const grant of spendableGrants(grants, now)) {
      if (left === 0) break;
      const take = Math.min(left, Math.max(0, grant.remaining));
      if (take === 0) continue;
      await stores.billing.setGrantRemaining(grant.id, grant.remaining - take);
      fromGrants.push({ id: grant.id, credits: take });
      left -= take;
    }
    const fromPrepaid = left;
    await stores.billing.recordEvent({
      id: newId(),
      organizationId,
      type: "ai_credits.spent",
      payload: {
        amount: use.spent,
        reason: use.reason,
        fromIncluded,
        fromGrants,
        fromPrepaid,
        websiteId: use.websiteId,
        prompt: use.prompt.slice(0, PROMPT_EXCERPT),
        images: use.images,
      },
      createdAt: now,
    });
    return {
      account: {
        ...((await dropReservation(stores, account, use.reservationId)) ?? account),
        aiCreditsUsed: account.aiCreditsUsed + fromIncluded,
        prepaidUsed: account.prepaidUsed + fromPrepaid,
      },
      result: undefined,
    };
  });
}
