// Sessions, password resets, invitations, website editors, mail, OAuth (times are Unix ms).
import type { Columns } from "./columns.ts";
import type { CoreTables } from "./core.ts";

export function accountTables(c: Columns, { websites }: Pick<CoreTables, "websites">) {
  /** Signed-in browser sessions on the app host; `id` is the SHA-256 of the cookie's secret. */
  const sessions = c.table(
    "sessions",
    {
      id: c.text("id").primaryKey(),
      userId: c.text("user_id").notNull(),
      createdAt: c.ms("created_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      lastSeenAt: c.ms("last_seen_at").notNull(),
      ip: c.text("ip").notNull(),
      userAgent: c.text("user_agent").notNull(),
    },
    (t) => [c.index("sessions_user_idx").on(t.userId)],
  );

  /** Single-use password reset links; `id` is the SHA-256 of the emailed secret. */
  const passwordResets = c.table(
    "password_resets",
    {
      id: c.text("id").primaryKey(),
      userId: c.text("user_id").notNull(),
      createdAt: c.ms("created_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      usedAt: c.ms("used_at"),
    },
    (t) => [c.index("password_resets_user_idx").on(t.userId)],
  );

  /**
   * Invitations to an organization (websiteId null) or to edit one website; accepted through an emailed link.
   * Only the token's SHA-256 is stored; the email is lower-cased. website_id has no foreign key: when the website
   * is deleted, its open invitations are revoked and kept (websites.delete).
   */
  const invitations = c.table(
    "invitations",
    {
      id: c.text("id").primaryKey(),
      organizationId: c.text("organization_id").notNull(),
      websiteId: c.text("website_id"),
      email: c.text("email").notNull(),
      role: c.text("role").notNull(),
      tokenHash: c.text("token_hash").notNull(),
      invitedByType: c.text("invited_by_type").notNull(),
      invitedById: c.text("invited_by_id").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      lastSentAt: c.ms("last_sent_at").notNull(),
      sendCount: c.integer("send_count").notNull(),
      acceptedAt: c.ms("accepted_at"),
      acceptedByUserId: c.text("accepted_by_user_id"),
      revokedAt: c.ms("revoked_at"),
    },
    (t) => [
      c.uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
      c.index("invitations_org_idx").on(t.organizationId, t.createdAt, t.id),
      c.index("invitations_email_idx").on(t.email),
    ],
  );

  /** Users who may edit one website without being members of its organization. */
  const websiteEditors = c.table(
    "website_editors",
    {
      websiteId: c
        .text("website_id")
        .notNull()
        .references(() => websites.id, { onDelete: "cascade" }),
      userId: c.text("user_id").notNull(),
      organizationId: c.text("organization_id").notNull(),
      role: c.text("role").notNull(),
      createdAt: c.ms("created_at").notNull(),
      createdByType: c.text("created_by_type").notNull(),
      createdById: c.text("created_by_id").notNull(),
      /** Granted while the user's email was unverified: no access until it is verified (then false). */
      pendingVerification: c.boolean("pending_verification").notNull().default(false),
    },
    (t) => [
      c.primaryKey({ columns: [t.websiteId, t.userId] }),
      c.index("website_editors_user_idx").on(t.userId),
      c.index("website_editors_org_idx").on(t.organizationId),
    ],
  );

  /** Single-use email verification links; `id` is the SHA-256 of the emailed secret, `email` the address it proves. */
  const emailVerifications = c.table(
    "email_verifications",
    {
      id: c.text("id").primaryKey(),
      userId: c.text("user_id").notNull(),
      email: c.text("email").notNull(),
      createdAt: c.ms("created_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      usedAt: c.ms("used_at"),
    },
    (t) => [c.index("email_verifications_user_idx").on(t.userId)],
  );

  /** Every mail the platform sent or tried to send (the dev outbox shows these). */
  const mailOutbox = c.table(
    "mail_outbox",
    {
      id: c.text("id").primaryKey(),
      toAddress: c.text("to_address").notNull(),
      subject: c.text("subject").notNull(),
      textBody: c.text("text_body").notNull(),
      htmlBody: c.text("html_body"),
      kind: c.text("kind").notNull(),
      createdAt: c.ms("created_at").notNull(),
      sentAt: c.ms("sent_at"),
      error: c.text("error"),
      /** Failed deliveries so far (queued mail only). */
      attempts: c.integer("attempts").notNull().default(0),
      /** When queued mail is (re)tried; null once sent, given up on, or when it was sent at once. */
      nextAttemptAt: c.ms("next_attempt_at"),
    },
    (t) => [
      c.index("mail_outbox_created_idx").on(t.createdAt, t.id),
      c.index("mail_outbox_to_idx").on(t.toAddress),
      c.index("mail_outbox_due_idx").on(t.nextAttemptAt),
    ],
  );

  /** OAuth clients of the MCP resource: Client ID Metadata Documents (id = its URL) and dynamically registered ones. */
  const oauthClients = c.table("oauth_clients", {
    id: c.text("id").primaryKey(),
    kind: c.text("kind").$type<"metadata_document" | "registered">().notNull(),
    name: c.text("name").notNull(),
    redirectUris: c.json("redirect_uris").$type<string[]>().notNull(),
    /** The client's metadata as given (the document, or the registration request's accepted fields). */
    metadata: c.json("metadata").$type<Record<string, unknown>>().notNull(),
    secretHash: c.text("secret_hash"),
    createdAt: c.ms("created_at").notNull(),
    updatedAt: c.ms("updated_at").notNull(),
    fetchedAt: c.ms("fetched_at"),
    cacheExpiresAt: c.ms("cache_expires_at"),
  });

  /**
   * A user's consent to one client ("connected client"): organization, websites (null = all), access and the
   * toolsets picked (null = no limit, for consents given before the consent page offered toolsets).
   */
  const oauthGrants = c.table(
    "oauth_grants",
    {
      id: c.text("id").primaryKey(),
      userId: c.text("user_id").notNull(),
      clientId: c.text("client_id").notNull(),
      organizationId: c.text("organization_id").notNull(),
      websiteIds: c.json("website_ids").$type<string[] | null>(),
      access: c.text("access").$type<"read" | "write">().notNull(),
      toolsets: c.json("toolsets").$type<string[] | null>(),
      scope: c.text("scope").notNull(),
      createdAt: c.ms("created_at").notNull(),
      updatedAt: c.ms("updated_at").notNull(),
      lastUsedAt: c.ms("last_used_at"),
      revokedAt: c.ms("revoked_at"),
    },
    (t) => [c.index("oauth_grants_user_idx").on(t.userId, t.createdAt, t.id)],
  );

  /** Authorization codes (id = SHA-256 of the code): single use, short-lived, PKCE S256; `familyId` once it issued tokens. */
  const oauthCodes = c.table(
    "oauth_codes",
    {
      id: c.text("id").primaryKey(),
      grantId: c.text("grant_id").notNull(),
      clientId: c.text("client_id").notNull(),
      redirectUri: c.text("redirect_uri").notNull(),
      codeChallenge: c.text("code_challenge").notNull(),
      resource: c.text("resource").notNull(),
      scope: c.text("scope").notNull(),
      createdAt: c.ms("created_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      usedAt: c.ms("used_at"),
      familyId: c.text("family_id"),
    },
    (t) => [c.index("oauth_codes_grant_idx").on(t.grantId)],
  );

  /** Access and refresh tokens (id = SHA-256 of the token); refresh tokens rotate within a family. */
  const oauthTokens = c.table(
    "oauth_tokens",
    {
      id: c.text("id").primaryKey(),
      kind: c.text("kind").$type<"access" | "refresh">().notNull(),
      grantId: c.text("grant_id").notNull(),
      familyId: c.text("family_id").notNull(),
      clientId: c.text("client_id").notNull(),
      resource: c.text("resource").notNull(),
      scope: c.text("scope").notNull(),
      createdAt: c.ms("created_at").notNull(),
      expiresAt: c.ms("expires_at").notNull(),
      usedAt: c.ms("used_at"),
      revokedAt: c.ms("revoked_at"),
    },
    (t) => [
      c.index("oauth_tokens_grant_idx").on(t.grantId),
      c.index("oauth_tokens_family_idx").on(t.familyId),
    ],
  );

  return {
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
  };
}
