import type { H3 } from "h3";
import type { Platform } from "../../kernel/platform.ts";
import { registerAcceptPage } from "./accept.ts";
import { registerAccountPages } from "./account.ts";
import { registerApiKeyPages } from "./api-keys.ts";
import { registerBillingPages } from "./billing.ts";
import { registerEditorPages } from "./editors.ts";
import { registerHomePages } from "./home.ts";
import { registerInvitationPages } from "./invitations.ts";
import { registerLocalBillingPages } from "./local-billing.ts";
import { registerMemberPages } from "./members.ts";
import { registerOperatorPages } from "./operator-feedback.ts";
import { registerVerifyEmailPages } from "./verify-email.ts";
import { registerWebsitePage } from "./website/index.ts";
import { registerWebsitePages } from "./websites.ts";

/**
 * The dashboard: every page after sign-in. Pages run operations through the one call pipeline as the
 * signed-in user (same permissions, validation and audit as the API); every POST form carries the CSRF token.
 */
export function registerPages(app: H3, platform: Platform): void {
  registerHomePages(app, platform);
  registerWebsitePages(app, platform);
  registerWebsitePage(app, platform);
  registerEditorPages(app, platform);
  registerApiKeyPages(app, platform);
  registerMemberPages(app, platform);
  registerInvitationPages(app, platform);
  registerBillingPages(app, platform);
  registerLocalBillingPages(app, platform);
  registerAcceptPage(app, platform);
  registerAccountPages(app, platform);
  registerVerifyEmailPages(app, platform);
  registerOperatorPages(app, platform);
}
