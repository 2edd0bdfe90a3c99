import type { Db, Dialect, Tables } from "../types.ts";
import { analyticsStore } from "./analytics.ts";
import { apiKeyStore } from "./api-keys.ts";
import { assetStore } from "./assets.ts";
import { auditStore } from "./audit.ts";
import { billingStore } from "./billing.ts";
import { blobLockStore } from "./blob-locks.ts";
import { cmsStore } from "./cms.ts";
import { contextDocumentStore } from "./context-documents.ts";
import { deploymentStore } from "./deployments.ts";
import { domainStore } from "./domains.ts";
import { emailVerificationStore } from "./email-verifications.ts";
import { feedbackStore } from "./feedback.ts";
import { formStore } from "./forms.ts";
import { functionRunStore } from "./function-runs.ts";
import { housekeepingStore } from "./housekeeping.ts";
import { idempotencyStore } from "./idempotency.ts";
import { invitationStore } from "./invitations.ts";
import { leaseStore } from "./leases.ts";
import { mailStore } from "./mail.ts";
import { memberStore } from "./members.ts";
import { oauthStore } from "./oauth.ts";
import { organizationStore } from "./organizations.ts";
import { secretStore } from "./secrets.ts";
import { sessionStore } from "./sessions.ts";
import { sourceFileStore } from "./source-files.ts";
import { websiteEditorStore } from "./website-editors.ts";
import { websiteStore } from "./websites.ts";

/** A store factory: the store of one aggregate, bound to one drizzle handle. */
type StoreFactory = (db: Db, t: Tables, dialect: Dialect) => object;

/** Every aggregate's store factory, by the name handlers use (`ctx.stores.<name>`). Adding a store is one line. */
const factories = {
  organizations: organizationStore,
  websites: websiteStore,
  apiKeys: apiKeyStore,
  audit: auditStore,
  billing: billingStore,
  idempotency: idempotencyStore,
  sourceFiles: sourceFileStore,
  leases: leaseStore,
  deployments: deploymentStore,
  cms: cmsStore,
  mail: mailStore,
  housekeeping: housekeepingStore,
  members: memberStore,
  invitations: invitationStore,
  websiteEditors: websiteEditorStore,
  oauth: oauthStore,
  sessions: sessionStore,
  emailVerifications: emailVerificationStore,
  forms: formStore,
  assets: assetStore,
  domains: domainStore,
  analytics: analyticsStore,
  secrets: secretStore,
  functionRuns: functionRunStore,
  contextDocuments: contextDocumentStore,
  feedback: feedbackStore,
  blobLocks: blobLockStore,
} satisfies Record<string, StoreFactory>;

/** Every aggregate's store, bound to one connection or transaction. */
export type Stores = { readonly [K in keyof typeof factories]: ReturnType<(typeof factories)[K]> };

/**
 * Binds the stores to a drizzle handle of `dialect`; stores are built lazily, so a unit of work pays only for
 * what it uses.
 */
export function bindStores(db: Db, t: Tables, dialect: Dialect): Stores {
  const stores = {};
  for (const [name, make] of Object.entries(factories) as [string, StoreFactory][]) {
    let store: object | undefined;
    Object.defineProperty(stores, name, { get: () => (store ??= make(db, t, dialect)), enumerable: true });
  }
  return stores as Stores;
}
