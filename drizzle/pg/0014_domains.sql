-- Ids and slugs are compared byte-wise, as on SQLite (keyset pages are ordered by id).
CREATE TABLE "website_domains" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"organization_id" text NOT NULL,
	"hostname" text NOT NULL,
	"kind" text NOT NULL,
	"paired_with_id" text,
	"is_primary" boolean NOT NULL,
	"status" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" bigint,
	"failing_since" bigint,
	"last_checked_at" bigint,
	"checks" jsonb,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_slug_redirects" (
	"slug" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"organization_id" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "website_domains" ADD CONSTRAINT "website_domains_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_slug_redirects" ADD CONSTRAINT "website_slug_redirects_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "website_domains_hostname_key" ON "website_domains" USING btree ("hostname");--> statement-breakpoint
CREATE INDEX "website_domains_website_idx" ON "website_domains" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "website_domains_org_idx" ON "website_domains" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "website_domains_check_idx" ON "website_domains" USING btree ("last_checked_at");--> statement-breakpoint
CREATE INDEX "website_slug_redirects_website_idx" ON "website_slug_redirects" USING btree ("website_id");