import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { billingState } from "./outputs.ts";
import { billingCall, organizationId } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.state.get",
  title: "Get billing state",
  description:
    "Returns the organization's billing state: status (no_subscription on the free plan, active, or billing_grace when past due), the subscription (plan, interval, AI credit tier, period end), the ai_credits meter, the prepaid usage balance, support credit grants, and custom-domain site capacity and count. Billing amounts are AI credits; times are Unix ms. Requires the organization owner.",
  input: z.object({ organizationId: organizationId() }).strict(),
  output: billingState,
  annotations: presets.readOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "GET", path: "/billing/state" },
  async handler(input, ctx) {
    return ctx.platform.billing.state(billingCall(ctx, input.organizationId));
  },
});
