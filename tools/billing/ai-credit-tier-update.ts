import { defineTool } from "../../src/kernel/define-tool.ts";
import { paymentResult } from "./outputs.ts";
import { aiCreditTierInput, billingCall, billingTool } from "./schemas.ts";

export default defineTool({
  ...billingTool,
  operationId: "billing.aiCreditTier.update",
  title: "Change the AI credit tier",
  description:
    "Sets the Pro subscription's monthly AI credit allowance. Increases apply at once, prorated, keeping this month's unused credits; decreases take effect at renewal; choosing the current tier cancels a scheduled decrease. paymentUrl is null when the change needed no payment step. Requires an active Pro subscription (conflict otherwise); preview with billing.aiCreditTier.previewChange.",
  input: aiCreditTierInput,
  output: paymentResult,
  capability: "billing.aiCreditTier.update",
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  http: { method: "POST", path: "/billing/ai-credit-tier" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.updateAiCreditTier(billingCall(ctx, organizationId), change);
  },
});
