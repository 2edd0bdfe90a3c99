import { defineTool } from "../../src/kernel/define-tool.ts";
import { priceProjection } from "./outputs.ts";
import { billingCall, billingTool, topUpInput } from "./schemas.ts";

export default defineTool({
  ...billingTool,
  operationId: "billing.usageTopUp.preview",
  title: "Preview a prepaid credit top-up",
  description:
    "Shows the price of buying `credits` prepaid AI credits (at least 400) as a price projection. Nothing is charged. Requires active billing: conflict on the free plan or while past due.",
  input: topUpInput,
  output: priceProjection,
  capability: "billing.usageTopUp.preview",
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  http: { method: "POST", path: "/billing/usage-top-up/preview" },
  async handler({ organizationId, idempotencyKey: _, ...topUp }, ctx) {
    return ctx.platform.billing.previewUsageTopUp(billingCall(ctx, organizationId), topUp);
  },
});
