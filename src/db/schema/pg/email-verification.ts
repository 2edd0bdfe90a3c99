// PostgreSQL schema: Email verification links. Mirrors ../sqlite/email-verification.ts (times are Unix ms).
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ms } from "./columns.ts";

/** Single-use email verification links; `id` is the SHA-256 of the emailed secret, `email` the address it proves. */
export const emailVerifications = pgTable(
  "email_verifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    email: text("email").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
    usedAt: ms("used_at"),
  },
  (t) => [index("email_verifications_user_idx").on(t.userId)],
);
