DROP INDEX "websites_org_idx";--> statement-breakpoint
CREATE INDEX "websites_org_idx" ON "websites" USING btree ("organization_id","created_at","id");