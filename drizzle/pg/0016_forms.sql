-- Ids, form names and emails are sorted and paged by: byte order (COLLATE "C"), as on SQLite.
CREATE TABLE "deployment_forms" (
	"deployment_id" text NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"page" text NOT NULL,
	"fields" jsonb NOT NULL,
	CONSTRAINT "deployment_forms_deployment_id_name_pk" PRIMARY KEY("deployment_id","name")
);
--> statement-breakpoint
CREATE TABLE "form_recipients" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"email" text COLLATE "C" NOT NULL,
	"token_hash" text NOT NULL,
	"confirmed_at" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_settings" (
	"website_id" text NOT NULL,
	"form_name" text COLLATE "C" NOT NULL,
	"enabled" boolean NOT NULL,
	"success_url" text,
	"notify" boolean NOT NULL,
	"spam_sensitivity" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "form_settings_website_id_form_name_pk" PRIMARY KEY("website_id","form_name")
);
--> statement-breakpoint
CREATE TABLE "form_submission_files" (
	"submission_id" text NOT NULL,
	"position" integer NOT NULL,
	"field" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	CONSTRAINT "form_submission_files_submission_id_position_pk" PRIMARY KEY("submission_id","position")
);
--> statement-breakpoint
CREATE TABLE "form_submissions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text NOT NULL,
	"form_name" text COLLATE "C" NOT NULL,
	"state" text NOT NULL,
	"values" jsonb NOT NULL,
	"spam_reasons" jsonb NOT NULL,
	"page" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deployment_forms" ADD CONSTRAINT "deployment_forms_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_recipients" ADD CONSTRAINT "form_recipients_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_settings" ADD CONSTRAINT "form_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submission_files" ADD CONSTRAINT "form_submission_files_submission_id_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_submissions" ADD CONSTRAINT "form_submissions_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_recipients_website_email_idx" ON "form_recipients" USING btree ("website_id","email");--> statement-breakpoint
CREATE INDEX "form_recipients_token_idx" ON "form_recipients" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "form_submission_files_sha256_idx" ON "form_submission_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "form_submissions_website_idx" ON "form_submissions" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "form_submissions_form_idx" ON "form_submissions" USING btree ("website_id","form_name","created_at","id");