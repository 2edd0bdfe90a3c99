-- Rows left behind by websites deleted before the database owned these cascades (deployments, publish state,
-- deployment files and outputs; CMS rows of broken references): removed first, as the new foreign keys forbid them.
DELETE FROM "deployment_outputs" WHERE NOT EXISTS (SELECT 1 FROM "deployments" "d" JOIN "websites" "w" ON "w"."id" = "d"."website_id" WHERE "d"."id" = "deployment_outputs"."deployment_id");
--> statement-breakpoint
DELETE FROM "deployment_files" WHERE NOT EXISTS (SELECT 1 FROM "deployments" "d" JOIN "websites" "w" ON "w"."id" = "d"."website_id" WHERE "d"."id" = "deployment_files"."deployment_id");
--> statement-breakpoint
DELETE FROM "website_publish_state" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "website_publish_state"."website_id");
--> statement-breakpoint
DELETE FROM "deployments" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "deployments"."website_id");
--> statement-breakpoint
DELETE FROM "website_files" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "website_files"."website_id");
--> statement-breakpoint
DELETE FROM "website_edit_leases" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "website_edit_leases"."website_id");
--> statement-breakpoint
DELETE FROM "website_editors" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "website_editors"."website_id");
--> statement-breakpoint
DELETE FROM "api_key_websites" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "api_key_websites"."website_id");
--> statement-breakpoint
DELETE FROM "cms_item_values" WHERE NOT EXISTS (SELECT 1 FROM "cms_collections" "c" JOIN "websites" "w" ON "w"."id" = "c"."website_id" WHERE "c"."id" = "cms_item_values"."collection_id");
--> statement-breakpoint
DELETE FROM "cms_item_terms" WHERE NOT EXISTS (SELECT 1 FROM "cms_collections" "c" JOIN "websites" "w" ON "w"."id" = "c"."website_id" WHERE "c"."id" = "cms_item_terms"."collection_id");
--> statement-breakpoint
DELETE FROM "cms_item_uniques" WHERE NOT EXISTS (SELECT 1 FROM "cms_collections" "c" JOIN "websites" "w" ON "w"."id" = "c"."website_id" WHERE "c"."id" = "cms_item_uniques"."collection_id");
--> statement-breakpoint
DELETE FROM "cms_fields" WHERE NOT EXISTS (SELECT 1 FROM "cms_collections" "c" JOIN "websites" "w" ON "w"."id" = "c"."website_id" WHERE "c"."id" = "cms_fields"."collection_id");
--> statement-breakpoint
DELETE FROM "cms_items" WHERE NOT EXISTS (SELECT 1 FROM "cms_collections" "c" JOIN "websites" "w" ON "w"."id" = "c"."website_id" WHERE "c"."id" = "cms_items"."collection_id") OR NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "cms_items"."website_id");
--> statement-breakpoint
DELETE FROM "cms_collections" WHERE NOT EXISTS (SELECT 1 FROM "websites" "w" WHERE "w"."id" = "cms_collections"."website_id");
--> statement-breakpoint
ALTER TABLE "deployment_files" DROP CONSTRAINT "deployment_files_deployment_id_deployments_id_fk";
--> statement-breakpoint
ALTER TABLE "deployment_outputs" DROP CONSTRAINT "deployment_outputs_deployment_id_deployments_id_fk";
--> statement-breakpoint
ALTER TABLE "website_publish_state" DROP CONSTRAINT "website_publish_state_published_deployment_id_deployments_id_fk";
--> statement-breakpoint
ALTER TABLE "website_editors" ADD CONSTRAINT "website_editors_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_collections" ADD CONSTRAINT "cms_collections_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_fields" ADD CONSTRAINT "cms_fields_collection_id_cms_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."cms_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_items" ADD CONSTRAINT "cms_items_collection_id_cms_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."cms_collections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_items" ADD CONSTRAINT "cms_items_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_websites" ADD CONSTRAINT "api_key_websites_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_files" ADD CONSTRAINT "deployment_files_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployment_outputs" ADD CONSTRAINT "deployment_outputs_deployment_id_deployments_id_fk" FOREIGN KEY ("deployment_id") REFERENCES "public"."deployments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_edit_leases" ADD CONSTRAINT "website_edit_leases_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_files" ADD CONSTRAINT "website_files_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_publish_state" ADD CONSTRAINT "website_publish_state_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "website_publish_state" ADD CONSTRAINT "website_publish_state_published_deployment_id_deployments_id_fk" FOREIGN KEY ("published_deployment_id") REFERENCES "public"."deployments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cms_items_website_idx" ON "cms_items" USING btree ("website_id");--> statement-breakpoint
CREATE INDEX "deployment_outputs_sha256_idx" ON "deployment_outputs" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "website_publish_state_deployment_idx" ON "website_publish_state" USING btree ("published_deployment_id");
