import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { priceProjection } from "./outputs.ts";
import { billingCall, topUpInput } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.usageTopUp.preview",
  title: "Preview a prepaid credit top-up",
  description:
    "Shows the price of buying `credits` prepaid AI credits (at least 400) as a price projection. Nothing is charged. Requires active billing: conflict on the free plan or while past due.",
  input: topUpInput,
  output: priceProjection,
  annotations: presets.readOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/billing/usage-top-up/preview" },
  async handler({ organizationId, idempotencyKey: _, ...topUp }, ctx) {
    return ctx.platform.billing.previewUsageTopUp(billingCall(ctx, organizationId), topUp);
  },
});
