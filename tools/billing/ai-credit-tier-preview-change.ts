import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { priceProjection } from "./outputs.ts";
import { aiCreditTierInput, billingCall } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.aiCreditTier.previewChange",
  title: "Preview an AI credit tier change",
  description:
    "Shows what billing.aiCreditTier.update would charge now: an increase is prorated for the rest of the billing period; a decrease costs nothing now and takes effect at renewal. Nothing is charged or changed. Requires an active Pro subscription (conflict otherwise).",
  input: aiCreditTierInput,
  output: priceProjection,
  annotations: presets.readOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/billing/ai-credit-tier/preview" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.previewAiCreditTier(billingCall(ctx, organizationId), change);
  },
});
