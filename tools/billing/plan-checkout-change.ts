import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { paymentResult } from "./outputs.ts";
import { billingCall, planChangeInput } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.plan.checkoutChange",
  title: "Change the plan",
  description:
    "Subscribes to Pro or changes its interval and AI credit tier. Without a subscription it starts hosted checkout: redirect the customer to paymentUrl. On Pro, monthly to annual applies at once (the unused monthly time is credited) and annual to monthly at renewal; tier increases apply at once, decreases at renewal; paymentUrl is then null. Preview with billing.plan.previewChange first; pass idempotencyKey so a retry does not repeat the change. Rejected with conflict while billing is past due.",
  input: planChangeInput,
  output: paymentResult,
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  idempotency: true,
  http: { method: "POST", path: "/billing/plan/checkout" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.checkoutPlanChange(billingCall(ctx, organizationId), change);
  },
});
