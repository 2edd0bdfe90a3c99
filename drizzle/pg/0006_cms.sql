CREATE TABLE "cms_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cms_fields" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"help_text" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean NOT NULL,
	"unique" boolean NOT NULL,
	"default_value" jsonb,
	"validations" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"position" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cms_items" (
	"id" text PRIMARY KEY NOT NULL,
	"collection_id" text NOT NULL,
	"website_id" text NOT NULL,
	"slug" text NOT NULL,
	"draft_values" jsonb NOT NULL,
	"published_values" jsonb,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"archived" boolean NOT NULL,
	"position" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"published_at" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cms_collections_slug_key" ON "cms_collections" USING btree ("website_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "cms_fields_key_key" ON "cms_fields" USING btree ("collection_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "cms_items_slug_key" ON "cms_items" USING btree ("collection_id","slug");--> statement-breakpoint
CREATE INDEX "cms_items_collection_idx" ON "cms_items" USING btree ("collection_id","created_at","id");--> statement-breakpoint
ALTER TABLE "cms_collections" ALTER COLUMN "id" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "cms_collections" ALTER COLUMN "slug" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "cms_fields" ALTER COLUMN "id" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "cms_fields" ALTER COLUMN "key" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "cms_items" ALTER COLUMN "id" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "cms_items" ALTER COLUMN "slug" TYPE text COLLATE "C";
