// Organizations, users, websites, API keys, audit, billing, idempotency (times are Unix ms).
import type { Columns } from "./columns.ts";

export function coreTables(c: Columns) {
  const organizations = c.table("organizations", {
    id: c.text("id").primaryKey(),
    name: c.text("name").notNull(),
    createdAt: c.ms("created_at").notNull(),
    updatedAt: c.ms("updated_at").notNull(),
  });

  const users = c.table(
    "users",
    {
      id: c.text("id").primaryKey(),
      email: c.text("email").notNull(),
      name: c.text("name").notNull(),
      passwordHash: c.text("password_hash"),
      createdAt: c.ms("created_at").notNull(),
      /** When the user proved they read mail at `email` (a verification, reset or invitation link); null: not yet. */
      emailVerifiedAt: c.ms("email_verified_at"),
    },
    (t) => [c.uniqueIndex("users_email_key").on(t.email)],
  );

  const memberships = c.table(
    "memberships",
    {
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      userId: c
        .text("user_id")
        .notNull()
        .references(() => users.id),
      role: c.text("role").notNull(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.organizationId, t.userId] }),
      c.index("memberships_user_idx").on(t.userId),
    ],
  );

  const websites = c.table(
    "websites",
    {
      id: c.text("id").primaryKey(),
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      name: c.text("name").notNull(),
      slug: c.text("slug").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
    },
    (t) => [
      c.uniqueIndex("websites_slug_key").on(t.slug),
      c.index("websites_org_idx").on(t.organizationId, t.createdAt, t.id),
    ],
  );

  const apiKeys = c.table(
    "api_keys",
    {
      id: c.text("id").primaryKey(),
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      name: c.text("name").notNull(),
      accessKind: c.text("access_kind").$type<"organization" | "websites">().notNull(),
      role: c.text("role").notNull(),
      secretHash: c.text("secret_hash").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      expiresAt: c.ms("expires_at"),
      revokedAt: c.ms("revoked_at"),
      rotatedAt: c.ms("rotated_at"),
      createdByType: c.text("created_by_type").notNull(),
      createdById: c.text("created_by_id").notNull(),
    },
    (t) => [
      c.uniqueIndex("api_keys_secret_hash_key").on(t.secretHash),
      c.index("api_keys_org_idx").on(t.organizationId, t.createdAt, t.id),
    ],
  );

  /** The websites a `websites`-kind API key reaches. */
  const apiKeyWebsites = c.table(
    "api_key_websites",
    {
      apiKeyId: c
        .text("api_key_id")
        .notNull()
        .references(() => apiKeys.id),
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [
      c.primaryKey({ columns: [t.apiKeyId, t.websiteId] }),
      c.index("api_key_websites_website_idx").on(t.websiteId),
    ],
  );

  /**
   * The append-only audit log: the database refuses UPDATE and DELETE (see the migrations), so its website_id has
   * no foreign key. Entries about a deleted website stay.
   */
  const auditEntries = c.table(
    "audit_entries",
    {
      id: c.text("id").primaryKey(),
      organizationId: c.text("organization_id").notNull(),
      at: c.ms("at").notNull(),
      actorType: c.text("actor_type").notNull(),
      actorId: c.text("actor_id").notNull(),
      actorLabel: c.text("actor_label").notNull(),
      operationId: c.text("operation_id").notNull(),
      transport: c.text("transport").notNull(),
      requestId: c.text("request_id").notNull(),
      websiteId: c.text("website_id"),
      targetType: c.text("target_type"),
      targetId: c.text("target_id"),
      /** `success`, or the error kind the operation ended with. */
      outcome: c.text("outcome").notNull(),
    },
    (t) => [c.index("audit_entries_org_idx").on(t.organizationId, t.at, t.id)],
  );

  const billingAccounts = c.table("billing_accounts", {
    organizationId: c
      .text("organization_id")
      .primaryKey()
      .references(() => organizations.id),
    status: c.text("status").notNull(),
    complimentary: c.boolean("complimentary").notNull(),
    plan: c.text("plan"),
    interval: c.text("interval"),
    aiCreditTier: c.integer("ai_credit_tier"),
    pendingInterval: c.text("pending_interval"),
    pendingAiCreditTier: c.integer("pending_ai_credit_tier"),
    currentPeriodStart: c.ms("current_period_start"),
    currentPeriodEnd: c.ms("current_period_end"),
    canceledAtPeriodEnd: c.boolean("canceled_at_period_end").notNull(),
    aiCreditsUsed: c.double("ai_credits_used").notNull(),
    aiCreditsReserved: c.double("ai_credits_reserved").notNull(),
    prepaidCredits: c.double("prepaid_credits").notNull(),
    prepaidUsed: c.double("prepaid_used").notNull(),
    billableSiteCapacity: c.integer("billable_site_capacity"),
    updatedAt: c.ms("updated_at").notNull(),
  });

  const creditGrants = c.table(
    "credit_grants",
    {
      id: c.text("id").primaryKey(),
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      credits: c.double("credits").notNull(),
      remaining: c.double("remaining").notNull(),
      expiresAt: c.ms("expires_at"),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [c.index("credit_grants_org_idx").on(t.organizationId)],
  );

  /**
   * AI credits held for paid work in flight (an image generation), one row per reservation. The account's
   * `aiCreditsReserved` is kept equal to the sum of its rows; settling or releasing deletes the row, and
   * housekeeping releases rows past `expiresAt` (work a crashed process never finished).
   */
  const aiCreditReservations = c.table(
    "ai_credit_reservations",
    {
      id: c.text("id").primaryKey(),
      organizationId: c
        .text("organization_id")
        .notNull()
        .references(() => organizations.id),
      credits: c.double("credits").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [c.index("ai_credit_reservations_expiry_idx").on(t.expiresAt)],
  );

  const billingEvents = c.table(
    "billing_events",
    {
      id: c.text("id").primaryKey(),
      organizationId: c.text("organization_id").notNull(),
      type: c.text("type").notNull(),
      payload: c.json("payload").notNull(),
      createdAt: c.ms("created_at").notNull(),
    },
    (t) => [c.index("billing_events_org_idx").on(t.organizationId, t.createdAt)],
  );

  const idempotencyRecords = c.table("idempotency_records", {
    key: c.text("key").primaryKey(),
    requestHash: c.text("request_hash").notNull(),
    state: c.text("state").notNull(),
    response: c.json("response"),
    createdAt: c.ms("created_at").notNull(),
    expiresAt: c.ms("expires_at").notNull(),
  });

  return {
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
  };
}

/** The tables other areas reference. */
export type CoreTables = ReturnType<typeof coreTables>;
