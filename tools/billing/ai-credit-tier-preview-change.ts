import { defineTool } from "../../src/kernel/define-tool.ts";
import { priceProjection } from "./outputs.ts";
import { aiCreditTierInput, billingCall, billingTool } from "./schemas.ts";

export default defineTool({
  ...billingTool,
  operationId: "billing.aiCreditTier.previewChange",
  title: "Preview an AI credit tier change",
  description:
    "Shows what billing.aiCreditTier.update would charge now: an increase is prorated for the rest of the billing period; a decrease costs nothing now and takes effect at renewal. Nothing is charged or changed. Requires an active Pro subscription (conflict otherwise).",
  input: aiCreditTierInput,
  output: priceProjection,
  capability: "billing.aiCreditTier.previewChange",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  http: { method: "POST", path: "/billing/ai-credit-tier/preview" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.previewAiCreditTier(billingCall(ctx, organizationId), change);
  },
});
