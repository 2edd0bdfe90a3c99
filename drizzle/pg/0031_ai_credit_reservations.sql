CREATE TABLE "ai_credit_reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"credits" double precision NOT NULL,
	"expires_at" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_credit_reservations" ADD CONSTRAINT "ai_credit_reservations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_credit_reservations_expiry_idx" ON "ai_credit_reservations" USING btree ("expires_at");--> statement-breakpoint
-- Reservations held before this migration have no row, so nothing could ever expire them: a crash between
-- reserve and settle stranded them for good. Start every account from zero; the rows now carry what is held.
UPDATE "billing_accounts" SET "ai_credits_reserved" = 0;
