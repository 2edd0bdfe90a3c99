ALTER TABLE "analytics_events" DROP CONSTRAINT "analytics_events_website_id_websites_id_fk";
--> statement-breakpoint
DROP INDEX "analytics_events_ts_idx";--> statement-breakpoint
-- Every event is kept; its text id gives way to a row number, assigned in the order (ts, id) listed them, and the
-- identity goes on after the last one. No index on it: appends enter only (website_id, ts).
ALTER TABLE "analytics_events" RENAME COLUMN "id" TO "text_id";--> statement-breakpoint
ALTER TABLE "analytics_events" ADD COLUMN "id" bigint;--> statement-breakpoint
UPDATE "analytics_events" e SET "id" = o.n FROM (SELECT "text_id", row_number() OVER (ORDER BY "ts", "text_id") AS n FROM "analytics_events") o WHERE o."text_id" = e."text_id";--> statement-breakpoint
ALTER TABLE "analytics_events" DROP CONSTRAINT "analytics_events_pkey";--> statement-breakpoint
ALTER TABLE "analytics_events" DROP COLUMN "text_id";--> statement-breakpoint
ALTER TABLE "analytics_events" ALTER COLUMN "id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_events" ALTER COLUMN "id" ADD GENERATED ALWAYS AS IDENTITY (sequence name "analytics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
SELECT setval('analytics_events_id_seq', coalesce(max("id"), 0) + 1, false) FROM "analytics_events";
