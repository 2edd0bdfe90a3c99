import type { BillingAccountRecord } from "../../src/db/stores/billing.ts";
import { toApiError } from "../../src/kernel/errors.ts";
import { completeCheckoutSession } from "../../src/services/billing/checkout.ts";
import type { MatrixContext } from "./matrix.ts";

/** The error body of a call that must fail; throws when it succeeds. */
export async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return toApiError(error).toBody();
  }
  throw new Error("expected the call to fail");
}

/** A fresh organization with its owner, and helpers that act as that owner on its billing. */
export async function billingOrganization(ctx: MatrixContext, name: string) {
  const owner = await ctx.t.createOrganization(name);
  const organizationId = owner.organization.id;
  const db = ctx.t.platform.db;
  const call = (operationId: string, input: Record<string, unknown> = {}) =>
    ctx.t.callUnchecked(operationId, { organizationId, ...input }, owner.principal);
  const complete = (paymentUrl: string) =>
    completeCheckoutSession(db, organizationId, paymentUrl.split("/").pop()!);
  return {
    organizationId,
    principal: owner.principal,
    call,
    complete,
    account: () => db.read((s) => s.billing.getAccount(organizationId)),
    events: () => db.read((s) => s.billing.listEvents(organizationId)),
    patchAccount: (patch: Partial<BillingAccountRecord>) =>
      db.transaction(async (s) =>
        s.billing.putAccount({ ...(await s.billing.getAccount(organizationId))!, ...patch }),
      ),
  };
}
