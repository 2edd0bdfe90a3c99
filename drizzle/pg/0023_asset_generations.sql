CREATE TABLE "asset_generations" (
	"asset_id" text PRIMARY KEY NOT NULL,
	"prompt" text NOT NULL,
	"references" jsonb NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "asset_generations" ADD CONSTRAINT "asset_generations_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;