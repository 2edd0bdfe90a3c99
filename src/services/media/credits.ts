import type { Stores } from "../../db/stores/index.ts";
import { ApiError } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { readAccount, updateAccount } from "../billing/account.ts";
import { projectState, spendableGrants } from "../billing/state.ts";

/** AI credits one generated image costs. */
export const CREDITS_PER_IMAGE = 1;

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

/** A quick check before slow work starts (the definitive one is `spendAiCredits`, under the account's lock). */
export async function checkAiCredits(stores: Stores, organizationId: string, now: number, amount: number) {
  const account = await readAccount(stores, organizationId, now);
  const state = projectState(account, await stores.billing.listGrants(organizationId), 0, now);
  const meter = state.meters.ai_credits;
  check(state.status, meter.remaining, meter.unlimited, amount);
}

/**
 * Spends `amount` AI credits in the contract's order: the monthly allowance, then support grants (soonest expiry
 * first), then prepaid credits. Runs in the caller's unit of work with the account row locked, so parallel
 * spenders never spend the same credit; refuses with `forbidden` (and changes nothing) when too few are left or
 * billing is past due. Records a `ai_credits.spent` billing event.
 */
export async function spendAiCredits(
  stores: Stores,
  organizationId: string,
  now: number,
  amount: number,
  reason: string,
): Promise<void> {
  await updateAccount(stores, organizationId, now, async (account) => {
    const grants = await stores.billing.listGrants(organizationId);
    const state = projectState(account, grants, 0, now);
    const meter = state.meters.ai_credits;
    check(state.status, meter.remaining, meter.unlimited, amount);
    let left = amount;
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
      payload: { amount, reason, fromIncluded, fromGrants, fromPrepaid },
      createdAt: now,
    });
    return {
      account: {
        ...account,
        aiCreditsUsed: account.aiCreditsUsed + fromIncluded,
        prepaidUsed: account.prepaidUsed + fromPrepaid,
      },
      result: undefined,
    };
  });
}
