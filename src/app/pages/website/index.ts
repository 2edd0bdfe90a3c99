import type { H3 } from "h3";
import type { Platform } from "../../../kernel/platform.ts";
import { registerCmsPages } from "./cms.ts";
import { registerCmsItemPages } from "./cms-item.ts";
import { registerDeploymentPages } from "./deployments.ts";
import { registerDomainPages } from "./domains.ts";
import { registerOpenPreviewPage } from "./open-preview.ts";
import { registerOverviewPage } from "./overview.ts";
import { registerSourcePages } from "./source.ts";

/**
 * The website page, `/orgs/:organizationId/websites/:websiteId`: a hub of sections (overview, deployments,
 * CMS, source, editors) showing only what the user's role can call; every read and action runs through the
 * pipeline as the signed-in user. The editors section is ../editors.ts.
 */
export function registerWebsitePage(app: H3, platform: Platform): void {
  registerOverviewPage(app, platform);
  registerDeploymentPages(app, platform);
  registerCmsPages(app, platform);
  registerCmsItemPages(app, platform);
  registerSourcePages(app, platform);
  registerDomainPages(app, platform);
  registerOpenPreviewPage(app, platform);
}
