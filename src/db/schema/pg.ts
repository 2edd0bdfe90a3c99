// The PostgreSQL schema: every definition of ./tables.ts built with PostgreSQL's constructors, plus the tables
// only PostgreSQL has. drizzle-kit reads the tables from this module's named exports, so each table is exported
// by name (./exports-check.ts fails to compile when one is missing).
import { doublePrecision, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { definePgTables, type PgTables } from "./tables.ts";

export const tables: PgTables = definePgTables();

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
  aiCreditReservations,
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
  analyticsVisits,
  analyticsRollups,
  analyticsDailyRollups,
  analyticsRollupProgress,
  analyticsSalts,
  analyticsSettings,
  deploymentForms,
  formSubmissions,
  formSubmissionFiles,
  formSettings,
  formRecipients,
  assets,
  assetGenerations,
  websiteDomains,
  websiteSecrets,
  deploymentFunctions,
  functionRuns,
  productFeedback,
  websiteSlugRedirects,
  contextDocuments,
  blobLocks,
} = tables;

/** Shared token buckets (PostgreSQL only: SQLite keeps buckets in process). Refilled by the database clock. */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull(),
});
