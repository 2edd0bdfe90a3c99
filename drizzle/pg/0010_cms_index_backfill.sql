ALTER TABLE "cms_collections" ADD COLUMN "index_stale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Collections that existed before the query index get it rebuilt from their items at the next start.
UPDATE "cms_collections" SET "index_stale" = true;
