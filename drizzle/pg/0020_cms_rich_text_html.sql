ALTER TABLE "cms_items" ADD COLUMN "draft_html" jsonb;--> statement-breakpoint
ALTER TABLE "cms_items" ADD COLUMN "published_html" jsonb;