-- Ids, hashes, names and folders compare byte-wise, as on SQLite (keyset paging, name order).
CREATE TABLE "assets" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"sha256" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"folder" text COLLATE "C" NOT NULL,
	"alt" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assets_website_idx" ON "assets" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "assets_sha256_idx" ON "assets" USING btree ("sha256","website_id");