import type { Database } from "../../db/handle.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { updateAccount } from "../billing/account.ts";
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
 * Reserves `amount` AI credits before slow, paid work (a call to an image model) in one unit of work of its own,
 * with the billing account row locked: the meter's `remaining` already subtracts every open reservation, so two
 * concurrent generations can never hold more than is left. Refuses with `forbidden` (and reserves nothing) when
 * too few are left or billing is past due. Settle with `settleAiCredits`, or give back with `releaseAiCredits`.
 */
export function reserveAiCredits(db: Database, organizationId: string, now: number, amount: number) {
  return db.transaction((stores) =>
    updateAccount(stores, organizationId, now, async (account) => {
      const state = projectState(account, await stores.billing.listGrants(organizationId), 0, now);
      const meter = state.meters.ai_credits;
      check(state.status, meter.remaining, meter.unlimited, amount);
      return {
        account: { ...account, aiCreditsReserved: account.aiCreditsReserved + amount },
        result: undefined,
      };
    }),
  );
}

/** Gives back a reservation whose work failed (the provider's error, or the handler's). Nothing is spent. */
export function releaseAiCredits(db: Database, organizationId: string, now: number, amount: number) {
  return db.transaction((stores) =>
    updateAccount(stores, organizationId, now, async (account) => ({
      account: { ...account, aiCreditsReserved: Math.max(0, account.aiCreditsReserved - amount) },
      result: undefined,
    })),
  );
}

/** What a settled generation spent, for the `ai_credits.spent` billing event the billing page lists. */
export interface CreditUse {
  /** Credits reserved before the work; what is not spent goes back. */
  reserved: number;
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
 * reservation goes, and `spent` credits are taken in the contract's order: the monthly allowance, then support
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
        ...account,
        aiCreditsReserved: Math.max(0, account.aiCreditsReserved - use.reserved),
        aiCreditsUsed: account.aiCreditsUsed + fromIncluded,
        prepaidUsed: account.prepaidUsed + fromPrepaid,
      },
      result: undefined,
    };
  });
}
