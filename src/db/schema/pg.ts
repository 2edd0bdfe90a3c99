// PostgreSQL schema. Mirrors ./sqlite.ts table for table and column for column (times are Unix ms).
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const ms = (name: string) => bigint(name, { mode: "number" });

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: ms("created_at").notNull(),
  updatedAt: ms("updated_at").notNull(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const memberships = pgTable(
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

export const websites = pgTable(
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

export const apiKeys = pgTable(
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

export const apiKeyWebsites = pgTable(
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

export const auditEntries = pgTable(
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

export const billingAccounts = pgTable("billing_accounts", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id),
  status: text("status").notNull(),
  complimentary: boolean("complimentary").notNull(),
  plan: text("plan"),
  interval: text("interval"),
  aiCreditTier: integer("ai_credit_tier"),
  pendingInterval: text("pending_interval"),
  pendingAiCreditTier: integer("pending_ai_credit_tier"),
  currentPeriodStart: ms("current_period_start"),
  currentPeriodEnd: ms("current_period_end"),
  canceledAtPeriodEnd: boolean("canceled_at_period_end").notNull(),
  aiCreditsUsed: doublePrecision("ai_credits_used").notNull(),
  aiCreditsReserved: doublePrecision("ai_credits_reserved").notNull(),
  prepaidCredits: doublePrecision("prepaid_credits").notNull(),
  prepaidUsed: doublePrecision("prepaid_used").notNull(),
  billableSiteCapacity: integer("billable_site_capacity"),
  updatedAt: ms("updated_at").notNull(),
});

export const creditGrants = pgTable(
  "credit_grants",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    credits: doublePrecision("credits").notNull(),
    remaining: doublePrecision("remaining").notNull(),
    expiresAt: ms("expires_at"),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("credit_grants_org_idx").on(t.organizationId)],
);

export const billingEvents = pgTable(
  "billing_events",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("billing_events_org_idx").on(t.organizationId, t.createdAt)],
);

export const idempotencyRecords = pgTable("idempotency_records", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  state: text("state").notNull(),
  response: jsonb("response"),
  createdAt: ms("created_at").notNull(),
  expiresAt: ms("expires_at").notNull(),
});

/** Shared token buckets (PostgreSQL only: SQLite keeps buckets in process). Refilled by the database clock. */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull(),
});

// ── Source code ────────────────────────────────────────────────────────────────────────────────────────────
// Text contents of source files, content-addressed (sha256 of the UTF-8 bytes) and shared by drafts and
// deployments. Kept in the database so a draft write and its content commit or roll back together.
export const websiteFileContents = pgTable("website_file_contents", {
  sha256: text("sha256").primaryKey(),
  content: text("content").notNull(),
  size: integer("size").notNull(),
  createdAt: ms("created_at").notNull(),
  /** Last time a write referenced it; the sweep of unreferenced contents spares recently touched ones. */
  touchedAt: ms("touched_at").notNull(),
});

/** The draft of each website: one row per file. */
export const websiteFiles = pgTable(
  "website_files",
  {
    websiteId: text("website_id").notNull(),
    path: text("path").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => websiteFileContents.sha256),
    size: integer("size").notNull(),
    updatedAt: ms("updated_at").notNull(),
    updatedByType: text("updated_by_type").notNull(),
    updatedById: text("updated_by_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.path] }), index("website_files_sha256_idx").on(t.sha256)],
);

/** The edit lease of a website's draft: at most one row per website; live while expires_at is ahead. */
export const websiteEditLeases = pgTable("website_edit_leases", {
  websiteId: text("website_id").primaryKey(),
  leaseId: text("lease_id").notNull(),
  holderType: text("holder_type").notNull(),
  holderId: text("holder_id").notNull(),
  holderLabel: text("holder_label").notNull(),
  acquiredAt: ms("acquired_at").notNull(),
  expiresAt: ms("expires_at").notNull(),
});

/** Immutable builds of a website's draft. */
export const deployments = pgTable(
  "deployments",
  {
    id: text("id").primaryKey(),
    websiteId: text("website_id").notNull(),
    status: text("status").notNull(),
    sourceHash: text("source_hash").notNull(),
    createdAt: ms("created_at").notNull(),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id").notNull(),
    pages: jsonb("pages").notNull(),
    error: jsonb("error"),
  },
  (t) => [index("deployments_website_idx").on(t.websiteId, t.createdAt, t.id)],
);

/** The source files a deployment was built from (path → content), for changes and diffs. */
export const deploymentFiles = pgTable(
  "deployment_files",
  {
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id),
    path: text("path").notNull(),
    sha256: text("sha256")
      .notNull()
      .references(() => websiteFileContents.sha256),
    size: integer("size").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deploymentId, t.path] }),
    index("deployment_files_sha256_idx").on(t.sha256),
  ],
);

/** What a deployment serves: URL path → content-addressed blob (bytes live in the blob store). */
export const deploymentOutputs = pgTable(
  "deployment_outputs",
  {
    deploymentId: text("deployment_id")
      .notNull()
      .references(() => deployments.id),
    path: text("path").notNull(),
    sha256: text("sha256").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.path] })],
);

/** Which deployment a website serves (one pointer per website; publish and rollback swap it). */
export const websitePublishState = pgTable("website_publish_state", {
  websiteId: text("website_id").primaryKey(),
  publishedDeploymentId: text("published_deployment_id").references(() => deployments.id),
  updatedAt: ms("updated_at").notNull(),
});

// ── CMS ──────────────────────────────────────────────────────────────────────────────────────────────────────
/** CMS collections of a website (the slug names it in `sitewright:cms`). */
export const cmsCollections = pgTable(
  "cms_collections",
  {
    id: text("id").primaryKey(),
    websiteId: text("website_id").notNull(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_collections_slug_key").on(t.websiteId, t.slug)],
);

/** Typed fields of a collection, in `position` order. */
export const cmsFields = pgTable(
  "cms_fields",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    helpText: text("help_text").notNull(),
    type: text("type").notNull(),
    required: boolean("required").notNull(),
    unique: boolean("unique").notNull(),
    defaultValue: jsonb("default_value"),
    validations: jsonb("validations").notNull(),
    options: jsonb("options").notNull(),
    position: integer("position").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
  },
  (t) => [uniqueIndex("cms_fields_key_key").on(t.collectionId, t.key)],
);

/** Items of a collection: draft values always, published values while published. */
export const cmsItems = pgTable(
  "cms_items",
  {
    id: text("id").primaryKey(),
    collectionId: text("collection_id").notNull(),
    websiteId: text("website_id").notNull(),
    slug: text("slug").notNull(),
    draftValues: jsonb("draft_values").notNull(),
    publishedValues: jsonb("published_values"),
    status: text("status").notNull(),
    version: integer("version").notNull(),
    archived: boolean("archived").notNull(),
    position: integer("position").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    publishedAt: ms("published_at"),
  },
  (t) => [
    uniqueIndex("cms_items_slug_key").on(t.collectionId, t.slug),
    index("cms_items_collection_idx").on(t.collectionId, t.createdAt, t.id),
    // Manual order (cms.items.reorder; `position` in queries): position, then creation time, then id.
    index("cms_items_position_idx").on(t.collectionId, t.position, t.createdAt, t.id),
    index("cms_items_updated_idx").on(t.collectionId, t.updatedAt, t.id),
    index("cms_items_published_idx").on(t.collectionId, t.publishedAt.asc().nullsFirst(), t.id),
  ],
);

/**
 * The query index of item values, kept by the CMS store's item writes: one row per item, state ("d" draft
 * values, "p" published values) and field (one per element of a multi-valued field; a row of nulls for an empty
 * value), typed: num (number; boolean as 0/1), txt (exact text; JSON as canonical JSON), skey (txt's first 100
 * code points, indexed), low (txt lower-cased, for contains and startsWith).
 */
export const cmsItemValues = pgTable(
  "cms_item_values",
  {
    itemId: text("item_id").notNull(),
    collectionId: text("collection_id").notNull(),
    state: text("state").notNull(),
    fieldKey: text("field_key").notNull(),
    ord: integer("ord").notNull(),
    num: doublePrecision("num"),
    txt: text("txt"),
    skey: text("skey"),
    low: text("low"),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.ord] }),
    index("cms_item_values_num_idx").on(
      t.collectionId,
      t.state,
      t.fieldKey,
      t.num.asc().nullsFirst(),
      t.itemId,
    ),
    index("cms_item_values_text_idx").on(
      t.collectionId,
      t.state,
      t.fieldKey,
      t.skey.asc().nullsFirst(),
      t.itemId,
    ),
  ],
);

/** Words of items' text fields for search, per state: score = field weight × occurrences (capped). */
export const cmsItemTerms = pgTable(
  "cms_item_terms",
  {
    itemId: text("item_id").notNull(),
    collectionId: text("collection_id").notNull(),
    state: text("state").notNull(),
    fieldKey: text("field_key").notNull(),
    term: text("term").notNull(),
    score: integer("score").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.state, t.fieldKey, t.term] }),
    index("cms_item_terms_term_idx").on(t.collectionId, t.state, t.term, t.itemId),
  ],
);

/** Values of unique fields (sha256 of the canonical value), per state: the primary key enforces uniqueness. */
export const cmsItemUniques = pgTable(
  "cms_item_uniques",
  {
    collectionId: text("collection_id").notNull(),
    fieldKey: text("field_key").notNull(),
    state: text("state").notNull(),
    hash: text("hash").notNull(),
    itemId: text("item_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.fieldKey, t.state, t.hash] }),
    index("cms_item_uniques_item_idx").on(t.itemId),
  ],
);

/** Signed-in browser sessions on the app host; `id` is the SHA-256 of the cookie's secret. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    lastSeenAt: ms("last_seen_at").notNull(),
    ip: text("ip").notNull(),
    userAgent: text("user_agent").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Single-use password reset links; `id` is the SHA-256 of the emailed secret. */
export const passwordResets = pgTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** Invitations to an organization (websiteId null) or to edit one website; accepted through an emailed link. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    websiteId: text("website_id"),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedByType: text("invited_by_type").notNull(),
    invitedById: text("invited_by_id").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    lastSentAt: ms("last_sent_at").notNull(),
    sendCount: integer("send_count").notNull(),
    acceptedAt: ms("accepted_at"),
    acceptedByUserId: text("accepted_by_user_id"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    index("invitations_org_idx").on(t.organizationId, t.createdAt, t.id),
    index("invitations_email_idx").on(t.email),
  ],
);

/** Users who may edit one website without being members of its organization. */
export const websiteEditors = pgTable(
  "website_editors",
  {
    websiteId: text("website_id").notNull(),
    userId: text("user_id").notNull(),
    organizationId: text("organization_id").notNull(),
    role: text("role").notNull(),
    createdAt: ms("created_at").notNull(),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.userId] }),
    index("website_editors_user_idx").on(t.userId),
    index("website_editors_org_idx").on(t.organizationId),
  ],
);

/** Every mail the platform sent or tried to send (the dev outbox shows these). */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body"),
    kind: text("kind").notNull(),
    createdAt: ms("created_at").notNull(),
    sentAt: ms("sent_at"),
    error: text("error"),
  },
  (t) => [
    index("mail_outbox_created_idx").on(t.createdAt, t.id),
    index("mail_outbox_to_idx").on(t.toAddress),
  ],
);

/** OAuth clients of the MCP resource: Client ID Metadata Documents (id = its URL) and dynamically registered ones. */
export const oauthClients = pgTable("oauth_clients", {
  id: text("id").primaryKey(),
  kind: text("kind").notNull(),
  name: text("name").notNull(),
  redirectUris: jsonb("redirect_uris").notNull(),
  metadata: jsonb("metadata").notNull(),
  secretHash: text("secret_hash"),
  createdAt: ms("created_at").notNull(),
  updatedAt: ms("updated_at").notNull(),
  fetchedAt: ms("fetched_at"),
  cacheExpiresAt: ms("cache_expires_at"),
});

/** A user's consent to one client ("connected client"): organization, websites (null = all) and access. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    clientId: text("client_id").notNull(),
    organizationId: text("organization_id").notNull(),
    websiteIds: jsonb("website_ids"),
    access: text("access").notNull(),
    scope: text("scope").notNull(),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    lastUsedAt: ms("last_used_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId, t.createdAt, t.id)],
);

/** Authorization codes (id = SHA-256 of the code): single use, short-lived, PKCE S256. */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: text("id").primaryKey(),
    grantId: text("grant_id").notNull(),
    clientId: text("client_id").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    resource: text("resource").notNull(),
    scope: text("scope").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
    familyId: text("family_id"),
  },
  (t) => [index("oauth_codes_grant_idx").on(t.grantId)],
);

/** Access and refresh tokens (id = SHA-256 of the token); refresh tokens rotate within a family. */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    grantId: text("grant_id").notNull(),
    familyId: text("family_id").notNull(),
    clientId: text("client_id").notNull(),
    resource: text("resource").notNull(),
    scope: text("scope").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
    revokedAt: ms("revoked_at"),
  },
  (t) => [index("oauth_tokens_grant_idx").on(t.grantId), index("oauth_tokens_family_idx").on(t.familyId)],
);
