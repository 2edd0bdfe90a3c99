import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { paymentResult } from "./outputs.ts";
import { billingCall, topUpInput } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.usageTopUp.checkout",
  title: "Buy prepaid credits",
  description:
    "Starts hosted checkout for `credits` prepaid AI credits (at least 400): redirect the customer to paymentUrl; the credits are added to usageBalance once paid and never expire. Pass idempotencyKey so a retry returns the same checkout instead of starting a second purchase; a duplicate still in progress gets 409 conflict. Requires active billing (conflict on the free plan or while past due).",
  input: topUpInput,
  output: paymentResult,
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  idempotency: true,
  http: { method: "POST", path: "/billing/usage-top-up/checkout" },
  async handler({ organizationId, idempotencyKey: _, ...topUp }, ctx) {
    return ctx.platform.billing.checkoutUsageTopUp(billingCall(ctx, organizationId), topUp);
  },
});
