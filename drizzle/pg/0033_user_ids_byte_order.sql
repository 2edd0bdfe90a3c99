-- User ids and the ids of the auth tables order byte-wise, as on SQLite, whatever the database's default
-- collation (0002 did this for the other id columns). memberships.user_id references users.id and pages the
-- members list (createdAt, then user id), website_editors.user_id pages the editors list: both take the same
-- collation, so same-millisecond ties come out in creation order on both dialects.
ALTER TABLE "users" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "user_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "website_editors" ALTER COLUMN "user_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "email_verifications" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "oauth_clients" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "oauth_codes" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "oauth_tokens" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "password_resets" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "id" TYPE text COLLATE "C";
