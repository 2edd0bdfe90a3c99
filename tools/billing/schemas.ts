import { z } from "zod";
import type { ToolContext } from "../../src/kernel/context.ts";
import { fields } from "../../src/kernel/schemas.ts";
import {
  aiCreditTiers,
  DEFAULT_AI_CREDIT_TIER,
  MIN_TOP_UP_CREDITS,
  TOP_UP_CENTS_PER_CREDIT,
} from "../../src/services/billing/prices.ts";
import type { BillingCall } from "../../src/services/billing/provider.ts";

export const billingCall = (ctx: ToolContext, organizationId: string): BillingCall => ({
  stores: ctx.stores,
  organizationId,
  now: ctx.now,
});

export const organizationId = () =>
  fields.organizationId().describe("Id of the organization whose billing this is (from organizations_list).");

export const aiCreditTier = z
  .literal(aiCreditTiers)
  .describe(
    `Monthly AI credit allowance of the Pro subscription: one of ${aiCreditTiers.join(", ")}. Increases apply at once (prorated); decreases at renewal.`,
  );

const successUrl = z
  .string()
  .min(1)
  .optional()
  .describe("Absolute http(s) URL the customer returns to after paying at hosted checkout.");

const idempotencyKey = z
  .string()
  .min(1)
  .optional()
  .describe(
    "Any unique string per intended purchase: a retry with the same key and parameters returns the first result instead of repeating it.",
  );

export const planChangeInput = z
  .object({
    plan: z.enum(["pro"]).describe("The self-serve plan: pro."),
    interval: z
      .enum(["monthly", "annual"])
      .describe("Billing interval. Monthly to annual applies at once; annual to monthly at renewal."),
    organizationId: organizationId(),
    aiCreditTier: aiCreditTier.default(DEFAULT_AI_CREDIT_TIER),
    successUrl,
    idempotencyKey,
  })
  .strict();

export const aiCreditTierInput = z
  .object({ organizationId: organizationId(), aiCreditTier, successUrl, idempotencyKey })
  .strict();

export const topUpInput = z
  .object({
    organizationId: organizationId(),
    credits: z
      .number()
      .int()
      .min(MIN_TOP_UP_CREDITS)
      .max(Number.MAX_SAFE_INTEGER)
      .describe(
        `Prepaid AI credits to buy: an integer from ${MIN_TOP_UP_CREDITS} (${TOP_UP_CENTS_PER_CREDIT} cents per credit). They never expire.`,
      ),
    successUrl,
    idempotencyKey,
  })
  .strict();
