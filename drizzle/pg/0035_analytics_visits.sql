CREATE TABLE "analytics_visits" (
	"website_id" text NOT NULL,
	"visitor_id" text NOT NULL,
	"session_id" text NOT NULL,
	"ts" bigint NOT NULL,
	"source" text NOT NULL,
	"referrer" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"utm_term" text NOT NULL,
	"utm_content" text NOT NULL,
	CONSTRAINT "analytics_visits_website_id_visitor_id_pk" PRIMARY KEY("website_id","visitor_id")
);
--> statement-breakpoint
DROP INDEX "analytics_events_visitor_idx";--> statement-breakpoint
ALTER TABLE "analytics_visits" ADD CONSTRAINT "analytics_visits_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Visits under way go on: each visitor's latest event of the last hour.
INSERT INTO "analytics_visits" (website_id, visitor_id, session_id, ts, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content)
SELECT DISTINCT ON (website_id, visitor_id) website_id, visitor_id, session_id, ts, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content
FROM "analytics_events" WHERE ts >= (extract(epoch from now()) * 1000)::bigint - 3600000 ORDER BY website_id, visitor_id, ts DESC;
