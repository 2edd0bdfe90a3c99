// The billing operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import billingAiCreditTierPreviewChange from "./ai-credit-tier-preview-change.ts";
import billingAiCreditTierUpdate from "./ai-credit-tier-update.ts";
import billingPlanCheckoutChange from "./plan-checkout-change.ts";
import billingPlanPreviewChange from "./plan-preview-change.ts";
import billingPortalOpen from "./portal-open.ts";
import billingStateGet from "./state-get.ts";
import billingUsageTopUpCheckout from "./usage-top-up-checkout.ts";
import billingUsageTopUpPreview from "./usage-top-up-preview.ts";

export const billingTools = [
  billingAiCreditTierPreviewChange,
  billingAiCreditTierUpdate,
  billingPlanCheckoutChange,
  billingPlanPreviewChange,
  billingPortalOpen,
  billingStateGet,
  billingUsageTopUpCheckout,
  billingUsageTopUpPreview,
] as const satisfies readonly Tool[];
