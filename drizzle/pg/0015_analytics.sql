-- Ids, paths and dimension values compare byte-wise, as on SQLite (breakdowns are paged by value).
CREATE TABLE "analytics_events" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"website_id" text COLLATE "C" NOT NULL,
	"ts" bigint NOT NULL,
	"name" text NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"visitor_id" text COLLATE "C" NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"source" text NOT NULL,
	"referrer" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"utm_term" text NOT NULL,
	"utm_content" text NOT NULL,
	"device" text NOT NULL,
	"browser" text NOT NULL,
	"os" text NOT NULL,
	"country" text NOT NULL,
	"engagement_ms" integer NOT NULL,
	"props" jsonb
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_progress" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"rolled_to" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_rollups" (
	"website_id" text COLLATE "C" NOT NULL,
	"dimension" text COLLATE "C" NOT NULL,
	"hour" bigint NOT NULL,
	"value" text COLLATE "C" NOT NULL,
	"pageviews" integer NOT NULL,
	"events" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL,
	"bounces" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	CONSTRAINT "analytics_rollups_website_id_dimension_hour_value_pk" PRIMARY KEY("website_id","dimension","hour","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_salts" (
	"day" text COLLATE "C" PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_settings" (
	"website_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"excluded_ip_ranges" jsonb NOT NULL,
	"public_dashboard" boolean NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_events" ADD CONSTRAINT "analytics_events_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_rollups" ADD CONSTRAINT "analytics_rollups_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_settings" ADD CONSTRAINT "analytics_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_events_website_ts_idx" ON "analytics_events" USING btree ("website_id","ts");--> statement-breakpoint
CREATE INDEX "analytics_events_visitor_idx" ON "analytics_events" USING btree ("website_id","visitor_id","ts");--> statement-breakpoint
CREATE INDEX "analytics_events_ts_idx" ON "analytics_events" USING btree ("ts");