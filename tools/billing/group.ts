import { defineGroup } from "../../src/kernel/define-tool.ts";

/**
 * Every billing operation needs the organization owner role (API keys never hold it), so they are dashboard
 * operations: hidden from MCP, 403 for every API key over REST. Their annotations are open-world: each one goes
 * through the BillingProvider, which in production is an external payment service (subscriptions, invoices,
 * hosted checkout and portal live there); the local provider only stands in for it.
 */
export const billingGroup = defineGroup({
  tag: "Billing",
  description:
    "The organization's plan, AI credits and prepaid top-ups; for the owner, in the dashboard only.",
  toolset: "organization",
  defaults: { access: "owner", mcp: false },
});
