import type { Database } from "../../db/database.ts";
import type { Stores } from "../../db/stores/index.ts";
import { ApiError, notFound } from "../../kernel/errors.ts";
import { newId } from "../../kernel/ids.ts";
import { type Account, addMonths, periodMonths, updateAccount } from "./account.ts";
import type { Interval } from "./prices.ts";
import type { BillingCall, BillingState, PriceProjection } from "./provider.ts";
import { countBillableSites, hasPlan, projectState, siteCapacityFor } from "./state.ts";

/**
 * Local hosted checkout. Starting a checkout records a `checkout.session.created` billing event and
 * returns `${appUrl}/billing/checkout/<sessionId>`; the dashboard's checkout page (or a test) finishes
 * the purchase with `completeCheckoutSession`, which applies it and records `checkout.session.completed`.
 * Sessions expire 24 hours after they start, as hosted checkout sessions of payment providers do.
 */
export const CHECKOUT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const CHECKOUT_CREATED = "checkout.session.created";
export const CHECKOUT_COMPLETED = "checkout.session.completed";

export type CheckoutPurpose =
  | { type: "subscription"; plan: "pro"; interval: Interval; aiCreditTier: number }
  | { type: "usage_top_up"; credits: number };

export interface CheckoutSession {
  id: string;
  organizationId: string;
  purpose: CheckoutPurpose;
  /** What the customer pays, as previewed. */
  projection: PriceProjection;
  /** Where the customer is sent after paying. */
  successUrl: string;
  createdAt: number;
  expiresAt: number;
  status: "open" | "completed" | "expired";
}

interface CreatedPayload {
  sessionId: string;
  purpose: CheckoutPurpose;
  projection: PriceProjection;
  successUrl: string;
  expiresAt: number;
}

export const checkoutUrl = (appUrl: string, sessionId: string): string =>
  `${appUrl}/billing/checkout/${encodeURIComponent(sessionId)}`;

/** Records an open checkout session and returns the URL the customer pays at. */
export async function startCheckout(
  call: BillingCall,
  appUrl: string,
  session: { purpose: CheckoutPurpose; projection: PriceProjection; successUrl: string },
): Promise<{ paymentUrl: string }> {
  const sessionId = newId();
  const payload: CreatedPayload = { sessionId, ...session, expiresAt: call.now + CHECKOUT_SESSION_TTL_MS };
  await call.stores.billing.recordEvent({
    id: newId(),
    organizationId: call.organizationId,
    type: CHECKOUT_CREATED,
    payload,
    createdAt: call.now,
  });
  return { paymentUrl: checkoutUrl(appUrl, sessionId) };
}

/** A checkout session of the organization, with its status as of `now`. */
export async function getCheckoutSession(
  stores: Stores,
  organizationId: string,
  sessionId: string,
  now: number,
): Promise<CheckoutSession | undefined> {
  const events = await stores.billing.listEvents(organizationId);
  const sessionOf = (event: (typeof events)[number]) => (event.payload as { sessionId?: unknown }).sessionId;
  const created = events.find((e) => e.type === CHECKOUT_CREATED && sessionOf(e) === sessionId);
  if (!created) return undefined;
  const payload = created.payload as CreatedPayload;
  const completed = events.some((e) => e.type === CHECKOUT_COMPLETED && sessionOf(e) === sessionId);
  return {
    id: sessionId,
    organizationId,
    purpose: payload.purpose,
    projection: payload.projection,
    successUrl: payload.successUrl,
    createdAt: created.createdAt,
    expiresAt: payload.expiresAt,
    status: completed ? "completed" : now >= payload.expiresAt ? "expired" : "open",
  };
}

function applyPurchase(account: Account, purpose: CheckoutPurpose, sites: number, now: number): Account {
  if (purpose.type === "usage_top_up") {
    return { ...account, prepaidCredits: account.prepaidCredits + purpose.credits };
  }
  if (hasPlan(account)) {
    throw new ApiError(
      "conflict",
      "This organization already has a subscription; this checkout was not applied.",
      {
        suggestion: "Read {{billing.state.get}}; change the plan with {{billing.plan.checkoutChange}}.",
      },
    );
  }
  return {
    ...account,
    status: "active",
    complimentary: false,
    plan: purpose.plan,
    interval: purpose.interval,
    aiCreditTier: purpose.aiCreditTier,
    pendingInterval: null,
    pendingAiCreditTier: null,
    currentPeriodStart: now,
    currentPeriodEnd: addMonths(now, periodMonths(purpose.interval)),
    canceledAtPeriodEnd: false,
    aiCreditsUsed: 0,
    billableSiteCapacity: siteCapacityFor(sites),
  };
}

/**
 * Completes a local checkout session as if the customer paid: starts the subscription or adds the
 * prepaid credits, in one transaction. Unknown sessions are `not_found`; completed, expired or no
 * longer applicable ones are `conflict`. Returns the session (for its successUrl) and the new state.
 */
export async function completeCheckoutSession(
  db: Database,
  organizationId: string,
  sessionId: string,
  now = Date.now(),
): Promise<{ session: CheckoutSession; state: BillingState }> {
  return db.transaction((stores) =>
    updateAccount(stores, organizationId, now, async (account) => {
      const session = await getCheckoutSession(stores, organizationId, sessionId, now);
      if (!session) throw notFound("Checkout session", sessionId);
      if (session.status !== "open") {
        throw new ApiError("conflict", `Checkout session '${sessionId}' is ${session.status}.`, {
          suggestion:
            "Start a new checkout if the purchase is still wanted; read {{billing.state.get}} first.",
        });
      }
      const sites = await countBillableSites(stores, organizationId);
      const next = applyPurchase(account, session.purpose, sites, now);
      await stores.billing.recordEvent({
        id: newId(),
        organizationId,
        type: CHECKOUT_COMPLETED,
        payload: { sessionId, purpose: session.purpose, charged: session.projection.total },
        createdAt: now,
      });
      const grants = await stores.billing.listGrants(organizationId);
      const state = projectState({ ...next, updatedAt: now }, grants, sites, now);
      return { account: next, result: { session: { ...session, status: "completed" as const }, state } };
    }),
  );
}
