import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { registerAnalyticsPages } from "./analytics.ts";
import { registerAssetItemPages } from "./asset.ts";
import { registerAssetPages } from "./assets.ts";
import { registerCmsPages } from "./cms.ts";
import { registerCmsItemPages } from "./cms-item.ts";
import { registerDeploymentPages } from "./deployments.ts";
import { registerDomainPages } from "./domains.ts";
import { registerFormRecipientActions } from "./form-recipients.ts";
import { registerFormSettingsPages } from "./form-settings.ts";
import { registerFormSubmissionPages } from "./form-submission.ts";
import { registerFormPages } from "./forms.ts";
import { registerFunctionPages } from "./functions.ts";
import { registerOpenPreviewPage } from "./open-preview.ts";
import { registerOverviewPage } from "./overview.ts";
import { registerProjectContextPages } from "./project-context.ts";
import { registerSecretPages } from "./secrets.ts";
import { registerSourcePages } from "./source.ts";

/**
 * The website page, `/orgs/:organizationId/websites/:websiteId`: a hub of sections (overview, deployments,
 * CMS, source, assets, forms, functions, secrets, analytics, domains, editors) showing only what the user's role can call; every read and action runs through the
 * pipeline as the signed-in user. The editors section is ../editors.ts.
 */
export function registerWebsitePage(app: H3, platform: Platform): void {
  registerOverviewPage(app, platform);
  registerDeploymentPages(app, platform);
  registerCmsPages(app, platform);
  registerCmsItemPages(app, platform);
  registerSourcePages(app, platform);
  registerDomainPages(app, platform);
  registerAssetPages(app, platform);
  registerAssetItemPages(app, platform);
  registerProjectContextPages(app, platform);
  registerFormPages(app, platform);
  registerFunctionPages(app, platform);
  registerSecretPages(app, platform);
  registerAnalyticsPages(app, platform);
  registerFormSubmissionPages(app, platform);
  registerFormSettingsPages(app, platform);
  registerFormRecipientActions(app, platform);
  registerOpenPreviewPage(app, platform);
}
