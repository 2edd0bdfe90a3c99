// The SQLite schema: every definition of ./tables.ts built with SQLite's constructors. drizzle-kit reads the
// tables from this module's named exports, so each table is exported by name (the check below fails to compile
// when one is missing).
import { sqliteColumns } from "./columns.ts";
import type * as self from "./sqlite.ts";
import { defineTables, type Tables } from "./tables.ts";

export const tables: Tables = defineTables(sqliteColumns);

export const {
  organizations,
  users,
  memberships,
  websites,
  apiKeys,
  apiKeyWebsites,
  auditEntries,
  billingAccounts,
  creditGrants,
  billingEvents,
  idempotencyRecords,
  sessions,
  passwordResets,
  invitations,
  websiteEditors,
  emailVerifications,
  mailOutbox,
  oauthClients,
  oauthGrants,
  oauthCodes,
  oauthTokens,
  websiteFileContents,
  websiteFiles,
  websiteEditLeases,
  deployments,
  deploymentFiles,
  deploymentOutputs,
  websitePublishState,
  cmsCollections,
  cmsFields,
  cmsItems,
  cmsItemValues,
  cmsItemTerms,
  cmsItemUniques,
  analyticsEvents,
  analyticsRollups,
  analyticsRollupProgress,
  analyticsSalts,
  analyticsSettings,
  deploymentForms,
  formSubmissions,
  formSubmissionFiles,
  formSettings,
  formRecipients,
  assets,
  websiteDomains,
  websiteSlugRedirects,
} = tables;

type Unexported = Exclude<keyof Tables, keyof typeof self>;
const _everyTableExported: [Unexported] extends [never] ? true : Unexported = true;
