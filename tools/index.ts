// Every operation of the platform, listed explicitly group by group. REST routes, OpenAPI and MCP tools derive
// from this list.
import type { Tool } from "../src/kernel/define-tool.ts";
import { accountsTools } from "./accounts/index.ts";
import { analyticsTools } from "./analytics/index.ts";
import { apiKeysTools } from "./api-keys/index.ts";
import { assetsTools } from "./assets/index.ts";
import { auditLogTools } from "./audit-log/index.ts";
import { billingTools } from "./billing/index.ts";
import { cmsTools } from "./cms/index.ts";
import { domainsTools } from "./domains/index.ts";
import { formsTools } from "./forms/index.ts";
import { organizationsTools } from "./organizations/index.ts";
import { publishingTools } from "./publishing/index.ts";
import { sourceCodeTools } from "./source-code/index.ts";
import { websiteEditorsTools } from "./website-editors/index.ts";
import { websitesTools } from "./websites/index.ts";

export const tools: readonly Tool[] = [
  ...organizationsTools,
  ...websiteEditorsTools,
  ...websitesTools,
  ...apiKeysTools,
  ...auditLogTools,
  ...sourceCodeTools,
  ...publishingTools,
  ...cmsTools,
  ...analyticsTools,
  ...formsTools,
  ...assetsTools,
  ...domainsTools,
  ...billingTools,
  ...accountsTools,
];
