-- Ids order byte-wise, as on SQLite, whatever the database's default collation: keyset pages and
-- same-millisecond ties come out identically on both dialects.
ALTER TABLE "organizations" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "websites" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "api_key_websites" ALTER COLUMN "website_id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "audit_entries" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "credit_grants" ALTER COLUMN "id" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "billing_events" ALTER COLUMN "id" TYPE text COLLATE "C";
