// SQLite schema: Organizations, users, websites, API keys, audit, billing, idempotency. Mirrors ../pg/core.ts (times are Unix ms).
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ms } from "./columns.ts";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: ms("created_at").notNull(),
  updatedAt: ms("updated_at").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    createdAt: ms("created_at").notNull(),
    /** When the user proved they read mail at `email` (a verification, reset or invitation link); null: not yet. */
    emailVerifiedAt: ms("email_verified_at"),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const memberships = sqliteTable(
  "memberships",
  {
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    role: text("role").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index("memberships_user_idx").on(t.userId)],
);

export const websites = sqliteTable(
  "websites",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("websites_slug_key").on(t.slug),
    index("websites_org_idx").on(t.organizationId, t.createdAt),
  ],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    name: text("name").notNull(),
    accessKind: text("access_kind").notNull(),
    role: text("role").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    expiresAt: ms("expires_at"),
    revokedAt: ms("revoked_at"),
    rotatedAt: ms("rotated_at"),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id").notNull(),
  },
  (t) => [
    uniqueIndex("api_keys_secret_hash_key").on(t.secretHash),
    index("api_keys_org_idx").on(t.organizationId, t.createdAt, t.id),
  ],
);

export const apiKeyWebsites = sqliteTable(
  "api_key_websites",
  {
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
    websiteId: text("website_id").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.websiteId] }),
    index("api_key_websites_website_idx").on(t.websiteId),
  ],
);

export const auditEntries = sqliteTable(
  "audit_entries",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    at: ms("at").notNull(),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id").notNull(),
    actorLabel: text("actor_label").notNull(),
    operationId: text("operation_id").notNull(),
    transport: text("transport").notNull(),
    requestId: text("request_id").notNull(),
    websiteId: text("website_id"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    outcome: text("outcome").notNull(),
  },
  (t) => [index("audit_entries_org_idx").on(t.organizationId, t.at, t.id)],
);

export const billingAccounts = sqliteTable("billing_accounts", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  status: text("status").notNull(),
  complimentary: integer("complimentary", { mode: "boolean" }).notNull(),
  plan: text("plan"),
  interval: text("interval"),
  aiCreditTier: integer("ai_credit_tier"),
  pendingInterval: text("pending_interval"),
  pendingAiCreditTier: integer("pending_ai_credit_tier"),
  currentPeriodStart: ms("current_period_start"),
  currentPeriodEnd: ms("current_period_end"),
  canceledAtPeriodEnd: integer("canceled_at_period_end", { mode: "boolean" }).notNull(),
  aiCreditsUsed: real("ai_credits_used").notNull(),
  aiCreditsReserved: real("ai_credits_reserved").notNull(),
  prepaidCredits: real("prepaid_credits").notNull(),
  prepaidUsed: real("prepaid_used").notNull(),
  billableSiteCapacity: integer("billable_site_capacity"),
  updatedAt: ms("updated_at").notNull(),
});

export const creditGrants = sqliteTable(
  "credit_grants",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    credits: real("credits").notNull(),
    remaining: real("remaining").notNull(),
    expiresAt: ms("expires_at"),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("credit_grants_org_idx").on(t.organizationId)],
);

export const billingEvents = sqliteTable(
  "billing_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    type: text("type").notNull(),
    payload: text("payload", { mode: "json" }).notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("billing_events_org_idx").on(t.organizationId, t.createdAt)],
);

export const idempotencyRecords = sqliteTable("idempotency_records", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  state: text("state").notNull(),
  response: text("response", { mode: "json" }),
  createdAt: ms("created_at").notNull(),
  expiresAt: ms("expires_at").notNull(),
});
