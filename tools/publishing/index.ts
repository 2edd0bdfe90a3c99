// The publishing operations, listed explicitly (tools/index.ts gathers every group).
import type { Tool } from "../../src/kernel/define-tool.ts";
import publishingDeploymentEnsure from "./deployment-ensure.ts";
import publishingDeploymentsGet from "./deployments-get.ts";
import publishingDeploymentsList from "./deployments-list.ts";
import publishingHeadCheck from "./head-check.ts";
import publishingHeadPublish from "./head-publish.ts";
import publishingPreviewLinkCreate from "./preview-link-create.ts";
import publishingPublishedRollback from "./published-rollback.ts";

export const publishingTools = [
  publishingHeadCheck,
  publishingHeadPublish,
  publishingDeploymentEnsure,
  publishingPublishedRollback,
  publishingDeploymentsList,
  publishingDeploymentsGet,
  publishingPreviewLinkCreate,
] as const satisfies readonly Tool[];
