CREATE TABLE "product_feedback" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"website_id" text,
	"category" text,
	"message" text NOT NULL,
	"operation_id" text,
	"request_id" text,
	"principal_type" text NOT NULL,
	"principal_id" text NOT NULL,
	"principal_label" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product_feedback" ADD CONSTRAINT "product_feedback_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_feedback" ADD CONSTRAINT "product_feedback_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_feedback_created_idx" ON "product_feedback" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "product_feedback_organization_idx" ON "product_feedback" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "product_feedback_website_idx" ON "product_feedback" USING btree ("website_id");