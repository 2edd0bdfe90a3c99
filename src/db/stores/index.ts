import type { Db, Dialect, Tables } from "../types.ts";
import { type ApiKeyStore, apiKeyStore } from "./api-keys.ts";
import { type AuditStore, auditStore } from "./audit.ts";
import { type BillingStore, billingStore } from "./billing.ts";
import { type CmsStore, cmsStore } from "./cms.ts";
import { type DeploymentStore, deploymentStore } from "./deployments.ts";
import { type EmailVerificationStore, emailVerificationStore } from "./email-verifications.ts";
import { type FormStore, formStore } from "./forms.ts";
import { type HousekeepingStore, housekeepingStore } from "./housekeeping.ts";
import { type IdempotencyStore, idempotencyStore } from "./idempotency.ts";
import { type InvitationStore, invitationStore } from "./invitations.ts";
import { type LeaseStore, leaseStore } from "./leases.ts";
import { type MailStore, mailStore } from "./mail.ts";
import { type MemberStore, memberStore } from "./members.ts";
import { type OAuthStore, oauthStore } from "./oauth.ts";
import { type OrganizationStore, organizationStore } from "./organizations.ts";
import { type SessionStore, sessionStore } from "./sessions.ts";
import { type SourceFileStore, sourceFileStore } from "./source-files.ts";
import { type WebsiteEditorStore, websiteEditorStore } from "./website-editors.ts";
import { type WebsiteStore, websiteStore } from "./websites.ts";

/** Every aggregate's store, bound to one connection or transaction. */
export interface Stores {
  organizations: OrganizationStore;
  websites: WebsiteStore;
  apiKeys: ApiKeyStore;
  audit: AuditStore;
  billing: BillingStore;
  idempotency: IdempotencyStore;
  sourceFiles: SourceFileStore;
  leases: LeaseStore;
  deployments: DeploymentStore;
  cms: CmsStore;
  mail: MailStore;
  housekeeping: HousekeepingStore;
  members: MemberStore;
  invitations: InvitationStore;
  websiteEditors: WebsiteEditorStore;
  oauth: OAuthStore;
  sessions: SessionStore;
  emailVerifications: EmailVerificationStore;
  forms: FormStore;
}

/**
 * Binds the stores to a drizzle handle of `dialect`; stores are built lazily, so a unit of work pays only for
 * what it uses.
 */
export function bindStores(db: Db, t: Tables, dialect: Dialect): Stores {
  const cache: Partial<Stores> = {};
  const lazy = <K extends keyof Stores>(
    key: K,
    make: (db: Db, t: Tables, dialect: Dialect) => Stores[K],
  ) => ({
    get: () => (cache[key] ??= make(db, t, dialect)),
    enumerable: true,
  });
  return Object.defineProperties({} as Stores, {
    organizations: lazy("organizations", organizationStore),
    websites: lazy("websites", websiteStore),
    apiKeys: lazy("apiKeys", apiKeyStore),
    audit: lazy("audit", auditStore),
    billing: lazy("billing", billingStore),
    idempotency: lazy("idempotency", idempotencyStore),
    sourceFiles: lazy("sourceFiles", sourceFileStore),
    leases: lazy("leases", leaseStore),
    deployments: lazy("deployments", deploymentStore),
    cms: lazy("cms", cmsStore),
    mail: lazy("mail", mailStore),
    housekeeping: lazy("housekeeping", housekeepingStore),
    members: lazy("members", memberStore),
    invitations: lazy("invitations", invitationStore),
    websiteEditors: lazy("websiteEditors", websiteEditorStore),
    oauth: lazy("oauth", oauthStore),
    sessions: lazy("sessions", sessionStore),
    emailVerifications: lazy("emailVerifications", emailVerificationStore),
    forms: lazy("forms", formStore),
  });
}
