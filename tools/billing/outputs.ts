import { z } from "zod";

/** Output schemas of the Billing tools, exact: no additional properties anywhere. */
const meter = z
  .object({
    included: z.number().describe("Amount included with the plan."),
    prepaid: z.number().describe("Amount purchased."),
    used: z.number().describe("Consumed in the current period."),
    remainingIncluded: z.number().describe("Left of the included amount."),
    remainingPrepaid: z.number().describe("Left of the purchased amount."),
    remaining: z.number().describe("Spendable now, after temporary reservations (0 while past due)."),
    settledRemaining: z.number().describe("Remaining after settled consumption, excluding reservations."),
    unlimited: z.boolean().describe("True when the meter is not limited."),
    nextResetAt: z
      .number()
      .optional()
      .describe("Next reset, Unix ms; omitted for balances that never reset."),
  })
  .strict()
  .describe("A meter, in AI credits.");

export const billingState = z
  .object({
    organizationId: z.string().describe("Organization the state belongs to."),
    status: z
      .enum(["no_subscription", "active", "billing_grace"])
      .describe(
        "no_subscription: the free plan. billing_grace: past due; websites keep serving, paid changes and metered consumption are blocked.",
      ),
    complimentary: z.boolean().describe("True for the manually assigned no-charge plan."),
    subscription: z
      .object({
        plan: z.enum(["pro", "enterprise"]).describe("pro, or enterprise (a per-customer plan)."),
        interval: z.enum(["monthly", "annual"]).optional(),
        aiCreditTier: z.number().optional().describe("Monthly AI credit allowance."),
        currentPeriodEnd: z.number().optional().describe("End of the current billing period, Unix ms."),
        canceledAtPeriodEnd: z.boolean().describe("Cancellation is scheduled for the period end."),
      })
      .strict()
      .optional()
      .describe("Omitted on the free plan."),
    capabilities: z.object({ analytics_view: z.boolean() }).strict().describe("Plan features."),
    meters: z.object({ ai_credits: meter }).strict(),
    usageBalance: meter
      .optional()
      .describe("Prepaid top-up balance: never expires, spent after the allowance and grants."),
    creditGrants: z
      .array(
        z
          .object({
            id: z.string(),
            credits: z.number().describe("Credits originally granted."),
            remaining: z.number().describe("Credits not yet spent."),
            expiresAt: z.number().optional().describe("Unix ms; omitted when the grant never expires."),
          })
          .strict(),
      )
      .describe("Credits granted by support, in spending order (soonest expiry first)."),
    billableSiteCapacity: z.number().optional().describe("Websites with custom domains the plan covers."),
    billableSiteCount: z.number().optional().describe("Websites with at least one custom domain."),
  })
  .strict();

export const priceProjection = z
  .object({
    total: z.number().nullable().describe("Amount due now in cents (the currency's minor unit)."),
    currency: z.string().nullable().describe("ISO currency code, lower case (usd)."),
    lineItems: z
      .array(
        z
          .object({
            title: z.string().optional(),
            description: z.string().optional(),
            amount: z.number().optional().describe("The line's total in cents; negative for credits."),
            quantity: z.number().optional(),
          })
          .strict(),
      )
      .describe(
        "What makes up the total; lines without an amount describe changes that are not charged now.",
      ),
  })
  .strict();

export const paymentResult = z
  .object({
    paymentUrl: z
      .string()
      .nullable()
      .describe(
        "Hosted checkout page to send the customer to; null when the change applied with no payment step.",
      ),
  })
  .strict();
