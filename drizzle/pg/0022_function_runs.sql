-- Run ids (the keyset tie-break), website ids and function names are sorted: byte order (COLLATE "C"), as on SQLite.
CREATE TABLE "function_runs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"function_name" text COLLATE "C" NOT NULL,
	"trigger" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"logs" jsonb NOT NULL,
	"dropped_logs" integer NOT NULL,
	"error" jsonb,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "function_runs" ADD CONSTRAINT "function_runs_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "function_runs_website_idx" ON "function_runs" USING btree ("website_id","created_at","id");--> statement-breakpoint
CREATE INDEX "function_runs_function_idx" ON "function_runs" USING btree ("website_id","function_name","created_at","id");--> statement-breakpoint
CREATE INDEX "function_runs_created_idx" ON "function_runs" USING btree ("created_at");