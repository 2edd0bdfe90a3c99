// Every operation of the platform, listed explicitly. REST routes, OpenAPI and MCP tools derive from this list.
import type { Tool } from "../src/kernel/define-tool.ts";
import apiKeysCreate from "./api-keys/create.ts";
import apiKeysGet from "./api-keys/get.ts";
import apiKeysList from "./api-keys/list.ts";
import apiKeysRevoke from "./api-keys/revoke.ts";
import apiKeysRotate from "./api-keys/rotate.ts";
import apiKeysUpdate from "./api-keys/update.ts";
import auditLogList from "./audit-log/list.ts";
import billingAiCreditTierPreviewChange from "./billing/ai-credit-tier-preview-change.ts";
import billingAiCreditTierUpdate from "./billing/ai-credit-tier-update.ts";
import billingPlanCheckoutChange from "./billing/plan-checkout-change.ts";
import billingPlanPreviewChange from "./billing/plan-preview-change.ts";
import billingPortalOpen from "./billing/portal-open.ts";
import billingStateGet from "./billing/state-get.ts";
import billingUsageTopUpCheckout from "./billing/usage-top-up-checkout.ts";
import billingUsageTopUpPreview from "./billing/usage-top-up-preview.ts";
import cmsCollectionsCreate from "./cms/collections-create.ts";
import cmsCollectionsDelete from "./cms/collections-delete.ts";
import cmsCollectionsGet from "./cms/collections-get.ts";
import cmsCollectionsList from "./cms/collections-list.ts";
import cmsCollectionsUpdate from "./cms/collections-update.ts";
import cmsFieldsCreate from "./cms/fields-create.ts";
import cmsFieldsDelete from "./cms/fields-delete.ts";
import cmsFieldsList from "./cms/fields-list.ts";
import cmsFieldsUpdate from "./cms/fields-update.ts";
import cmsItemsArchive from "./cms/items-archive.ts";
import cmsItemsBulkCreate from "./cms/items-bulk-create.ts";
import cmsItemsBulkDelete from "./cms/items-bulk-delete.ts";
import cmsItemsBulkUpdate from "./cms/items-bulk-update.ts";
import cmsItemsCreate from "./cms/items-create.ts";
import cmsItemsDelete from "./cms/items-delete.ts";
import cmsItemsGet from "./cms/items-get.ts";
import cmsItemsList from "./cms/items-list.ts";
import cmsItemsQuery from "./cms/items-query.ts";
import cmsItemsReorder from "./cms/items-reorder.ts";
import cmsItemsSetPublished from "./cms/items-set-published.ts";
import cmsItemsUpdate from "./cms/items-update.ts";
import organizationsCreate from "./organizations/create.ts";
import organizationsGet from "./organizations/get.ts";
import organizationsInvitationsAccept from "./organizations/invitations-accept.ts";
import organizationsInvitationsCreate from "./organizations/invitations-create.ts";
import organizationsInvitationsList from "./organizations/invitations-list.ts";
import organizationsInvitationsResend from "./organizations/invitations-resend.ts";
import organizationsInvitationsRevoke from "./organizations/invitations-revoke.ts";
import organizationsList from "./organizations/list.ts";
import organizationsMembersList from "./organizations/members-list.ts";
import organizationsMembersRemove from "./organizations/members-remove.ts";
import organizationsMembersUpdateRole from "./organizations/members-update-role.ts";
import organizationsUpdate from "./organizations/update.ts";
import publishingDeploymentEnsure from "./publishing/deployment-ensure.ts";
import publishingDeploymentsGet from "./publishing/deployments-get.ts";
import publishingDeploymentsList from "./publishing/deployments-list.ts";
import publishingHeadCheck from "./publishing/head-check.ts";
import publishingHeadPublish from "./publishing/head-publish.ts";
import publishingPublishedRollback from "./publishing/published-rollback.ts";
import sourceCodeChangesList from "./source-code/changes-list.ts";
import sourceCodeFilesDelete from "./source-code/files-delete.ts";
import sourceCodeFilesDiff from "./source-code/files-diff.ts";
import sourceCodeFilesGet from "./source-code/files-get.ts";
import sourceCodeFilesList from "./source-code/files-list.ts";
import sourceCodeFilesMove from "./source-code/files-move.ts";
import sourceCodeFilesWrite from "./source-code/files-write.ts";
import sourceCodeFilesWriteMany from "./source-code/files-write-many.ts";
import sourceCodeLeaseAcquire from "./source-code/lease-acquire.ts";
import sourceCodeLeaseGet from "./source-code/lease-get.ts";
import sourceCodeLeaseRelease from "./source-code/lease-release.ts";
import sourceCodeLeaseRenew from "./source-code/lease-renew.ts";
import websiteEditorsGrant from "./website-editors/grant.ts";
import websiteEditorsInvite from "./website-editors/invite.ts";
import websiteEditorsList from "./website-editors/list.ts";
import websiteEditorsRevoke from "./website-editors/revoke.ts";
import websitesCreate from "./websites/create.ts";
import websitesDelete from "./websites/delete.ts";
import websitesGet from "./websites/get.ts";
import websitesList from "./websites/list.ts";
import websitesUpdate from "./websites/update.ts";

export const tools: readonly Tool[] = [
  organizationsList,
  organizationsGet,
  organizationsCreate,
  organizationsUpdate,
  organizationsMembersList,
  organizationsMembersUpdateRole,
  organizationsMembersRemove,
  organizationsInvitationsCreate,
  organizationsInvitationsList,
  organizationsInvitationsRevoke,
  organizationsInvitationsResend,
  organizationsInvitationsAccept,
  websiteEditorsList,
  websiteEditorsGrant,
  websiteEditorsRevoke,
  websiteEditorsInvite,
  websitesList,
  websitesCreate,
  websitesGet,
  websitesUpdate,
  websitesDelete,
  apiKeysList,
  apiKeysCreate,
  apiKeysGet,
  apiKeysUpdate,
  apiKeysRotate,
  apiKeysRevoke,
  auditLogList,
  sourceCodeLeaseAcquire,
  sourceCodeLeaseRenew,
  sourceCodeLeaseRelease,
  sourceCodeLeaseGet,
  sourceCodeFilesList,
  sourceCodeFilesGet,
  sourceCodeFilesWrite,
  sourceCodeFilesWriteMany,
  sourceCodeFilesDelete,
  sourceCodeFilesMove,
  sourceCodeChangesList,
  sourceCodeFilesDiff,
  publishingHeadCheck,
  publishingHeadPublish,
  publishingDeploymentEnsure,
  publishingPublishedRollback,
  publishingDeploymentsList,
  publishingDeploymentsGet,
  cmsCollectionsList,
  cmsCollectionsCreate,
  cmsCollectionsGet,
  cmsCollectionsUpdate,
  cmsCollectionsDelete,
  cmsFieldsList,
  cmsFieldsCreate,
  cmsFieldsUpdate,
  cmsFieldsDelete,
  cmsItemsList,
  cmsItemsQuery,
  cmsItemsGet,
  cmsItemsCreate,
  cmsItemsUpdate,
  cmsItemsDelete,
  cmsItemsSetPublished,
  cmsItemsBulkCreate,
  cmsItemsBulkUpdate,
  cmsItemsBulkDelete,
  cmsItemsArchive,
  cmsItemsReorder,
  billingAiCreditTierPreviewChange,
  billingAiCreditTierUpdate,
  billingPlanCheckoutChange,
  billingPlanPreviewChange,
  billingPortalOpen,
  billingStateGet,
  billingUsageTopUpCheckout,
  billingUsageTopUpPreview,
];
