import { ApiError } from "../../kernel/errors.ts";
import type { Account } from "./account.ts";
import { hasPlan } from "./state.ts";

/**
 * Preconditions of the billing operations. Each failure is a `conflict` (the request is well-formed but
 * the account's current state does not allow it) whose suggestion names the operation that resolves it.
 */

const pastDue = (what: string) =>
  new ApiError(
    "conflict",
    `Billing is past due: ${what} is blocked until the overdue invoice is paid. Existing websites keep serving.`,
    {
      suggestion:
        "Call {{billing.portal.open}} and update the payment method so the overdue invoice is paid, then retry.",
    },
  );

const managedPlan = (account: Account, what: string) =>
  new ApiError(
    "conflict",
    account.complimentary
      ? `This organization's plan is complimentary (assigned by support): ${what} is not self-serve.`
      : `This organization is on an enterprise plan: ${what} is set by its contract, not self-serve.`,
    { suggestion: "Contact support to change the plan; {{billing.portal.open}} shows invoices and details." },
  );

/** Plan preview and checkout: rejected while past due (the contract's rule) and on managed plans. */
export function assertPlanChangeAllowed(account: Account): void {
  if (account.status === "billing_grace") throw pastDue("changing the plan");
  if (hasPlan(account) && (account.complimentary || account.plan !== "pro")) {
    throw managedPlan(account, "changing the plan");
  }
}

/** AI credit tier preview and update: need an active, self-serve Pro subscription. */
export function assertActivePro(account: Account): void {
  if (account.status === "billing_grace") throw pastDue("changing the AI credit tier");
  if (!hasPlan(account)) {
    throw new ApiError(
      "conflict",
      "Changing the AI credit tier requires an active Pro subscription; this organization is on the free plan.",
      {
        suggestion:
          "Start Pro with {{billing.plan.checkoutChange}}, which takes aiCreditTier (preview it with {{billing.plan.previewChange}}).",
      },
    );
  }
  if (account.complimentary || account.plan !== "pro") {
    throw managedPlan(account, "changing the AI credit tier");
  }
}

/** Prepaid top-ups: need active billing (a plan in force and nothing past due). */
export function assertActiveBilling(account: Account): void {
  if (account.status === "billing_grace") throw pastDue("buying prepaid credits");
  if (account.status !== "active") {
    throw new ApiError(
      "conflict",
      "Buying prepaid credits requires active billing; this organization is on the free plan.",
      {
        suggestion:
          "Subscribe first with {{billing.plan.checkoutChange}} (preview it with {{billing.plan.previewChange}}).",
      },
    );
  }
}

/** successUrl and returnUrl: where the customer is sent back to, so only absolute http(s) URLs. */
export function assertReturnUrl(field: string, value: string | undefined): void {
  if (value === undefined) return;
  let protocol = "";
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL: rejected below
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new ApiError("validation", `${field}: must be an absolute http or https URL.`, {
      suggestion: `Pass a full URL such as https://example.com/billing/done, or omit ${field}.`,
    });
  }
}
