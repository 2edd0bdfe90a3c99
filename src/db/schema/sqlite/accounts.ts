// SQLite schema: Sessions, password resets, invitations, website editors, mail, OAuth. Mirrors ../pg/accounts.ts (times are Unix ms).
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ms } from "./columns.ts";

/** Signed-in browser sessions on the app host; `id` is the SHA-256 of the cookie's secret. */
export const sessions = sqliteTable(
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
export const passwordResets = sqliteTable(
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
export const invitations = sqliteTable(
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
export const websiteEditors = sqliteTable(
  "website_editors",
  {
    websiteId: text("website_id").notNull(),
    userId: text("user_id").notNull(),
    organizationId: text("organization_id").notNull(),
    role: text("role").notNull(),
    createdAt: ms("created_at").notNull(),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id").notNull(),
    /** Granted while the user's email was unverified: no access until it is verified (then false). */
    pendingVerification: integer("pending_verification", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.userId] }),
    index("website_editors_user_idx").on(t.userId),
    index("website_editors_org_idx").on(t.organizationId),
  ],
);

/** Every mail the platform sent or tried to send (the dev outbox shows these). */
export const mailOutbox = sqliteTable(
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
export const oauthClients = sqliteTable("oauth_clients", {
  id: text("id").primaryKey(),
  kind: text("kind").notNull(),
  name: text("name").notNull(),
  redirectUris: text("redirect_uris", { mode: "json" }).notNull(),
  metadata: text("metadata", { mode: "json" }).notNull(),
  secretHash: text("secret_hash"),
  createdAt: ms("created_at").notNull(),
  updatedAt: ms("updated_at").notNull(),
  fetchedAt: ms("fetched_at"),
  cacheExpiresAt: ms("cache_expires_at"),
});

/** A user's consent to one client ("connected client"): organization, websites (null = all) and access. */
export const oauthGrants = sqliteTable(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    clientId: text("client_id").notNull(),
    organizationId: text("organization_id").notNull(),
    websiteIds: text("website_ids", { mode: "json" }),
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
export const oauthCodes = sqliteTable(
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
export const oauthTokens = sqliteTable(
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
