CREATE TABLE "deployment_files" (
	"deployment_id" text NOT NULL,
	"path" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "deployment_files_deployment_id_path_pk" PRIMARY KEY("deployment_id","path")
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" text PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"status" text NOT NULL,
	"source_hash" text NOT NULL,
	"created_at" bigint NOT NULL,
	"created_by_type" text NOT NULL,
	"created_by_id" text NOT NULL,
	"pages" jsonb NOT NULL,
	"error" jsonb
);
--> statement-breakpoint
CREATE TABLE "website_edit_leases" (
	"website_id" text PRIMARY KEY NOT NULL,
	"lease_id" text NOT NULL,
	"holder_type" text NOT NULL,
	"holder_id" text NOT NULL,
	"holder_label" text NOT NULL,
	"acquired_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_file_contents" (
	"sha256" text PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"touched_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "website_files" (
	"website_id" text NOT NULL,
	"path" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by_type" text NOT NULL,
	"updated_by_id" text NOT NULL,
	CONSTRAINT "website_files_website_id_path_pk" PRIMARY KEY("website_id","path")
);
--> statement-breakpoint
CREATE TABLE "website_publish_state" (
	"website_id" text PRIMARY KEY NOT NULL,
	"published_deployment_id" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_files" ADD CONSTRAINT "deployment_files_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_files" ADD CONSTRAINT "deployment_files_sha256_website_file_contents_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."website_file_contents"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_files" ADD CONSTRAINT "website_files_sha256_website_file_contents_sha256_fk" FOREIGN KEY ("sha256") REFERENCES "public"."website_file_contents"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_publish_state" ADD CONSTRAINT "website_publish_state_published_deployment_id_deployments_id_fk" FOREIGN KEY ("published_deployment_id") REFERENCES "public"."deployments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deployment_files_sha256_idx" ON "deployment_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "deployments_website_idx" ON "deployments" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "website_files_sha256_idx" ON "website_files" USING btree ("sha256");