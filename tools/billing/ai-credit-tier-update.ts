import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { paymentResult } from "./outputs.ts";
import { aiCreditTierInput, billingCall } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.aiCreditTier.update",
  title: "Change the AI credit tier",
  description:
    "Sets the Pro subscription's monthly AI credit allowance. Increases apply at once, prorated, keeping this month's unused credits; decreases take effect at renewal; choosing the current tier cancels a scheduled decrease. paymentUrl is null when the change needed no payment step. Requires an active Pro subscription (conflict otherwise); preview with billing.aiCreditTier.previewChange.",
  input: aiCreditTierInput,
  output: paymentResult,
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  idempotency: true,
  http: { method: "POST", path: "/billing/ai-credit-tier" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.updateAiCreditTier(billingCall(ctx, organizationId), change);
  },
});
