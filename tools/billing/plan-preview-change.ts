import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { priceProjection } from "./outputs.ts";
import { billingCall, planChangeInput } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.plan.previewChange",
  title: "Preview a plan change",
  description:
    "Shows what billing.plan.checkoutChange would charge now for Pro at the given interval and AI credit tier, as a price projection (total in cents, currency, line items). Nothing is charged or changed. Website capacity follows the websites with custom domains and cannot be chosen. Rejected with conflict while billing is past due.",
  input: planChangeInput,
  output: priceProjection,
  annotations: presets.readOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/billing/plan/preview" },
  async handler({ organizationId, idempotencyKey: _, ...change }, ctx) {
    return ctx.platform.billing.previewPlanChange(billingCall(ctx, organizationId), change);
  },
});
