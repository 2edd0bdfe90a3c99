import { z } from "zod";
import { presets } from "../../src/kernel/annotations.ts";
import { defineTool } from "../../src/kernel/define-tool.ts";
import { billingGroup } from "./group.ts";
import { billingCall, organizationId } from "./schemas.ts";

export default defineTool({
  group: billingGroup,
  operationId: "billing.portal.open",
  title: "Open the billing portal",
  description:
    "Opens a hosted billing portal session where the owner updates payment details, reads invoices and manages the subscription; the way out of billing_grace (past due). Returns {url}: send the customer there; they come back to returnUrl.",
  input: z
    .object({
      organizationId: organizationId(),
      returnUrl: z
        .string()
        .min(1)
        .optional()
        .describe("Absolute http(s) URL the customer returns to from the portal (default: the dashboard)."),
    })
    .strict(),
  output: z.object({ url: z.string().describe("The billing portal session URL.") }).strict(),
  annotations: presets.createOpenWorld,
  scope: { organizationId: "organizationId" },
  http: { method: "POST", path: "/billing/portal" },
  async handler(input, ctx) {
    return ctx.platform.billing.openPortal(billingCall(ctx, input.organizationId), input.returnUrl);
  },
});
