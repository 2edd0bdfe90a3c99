-- Paths and ids of the source-code tables order byte-wise, as on SQLite, whatever the database's default
-- collation: file lists and their cursors come out identically on both dialects.
ALTER TABLE "website_files" ALTER COLUMN "path" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "deployment_files" ALTER COLUMN "path" TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE "deployments" ALTER COLUMN "id" TYPE text COLLATE "C";
