PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_analytics_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`ts` integer NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`visitor_id` text NOT NULL,
	`session_id` text NOT NULL,
	`source` text NOT NULL,
	`referrer` text NOT NULL,
	`utm_source` text NOT NULL,
	`utm_medium` text NOT NULL,
	`utm_campaign` text NOT NULL,
	`utm_term` text NOT NULL,
	`utm_content` text NOT NULL,
	`device` text NOT NULL,
	`browser` text NOT NULL,
	`os` text NOT NULL,
	`country` text NOT NULL,
	`engagement_ms` integer NOT NULL,
	`props` text
);
--> statement-breakpoint
-- Every event is kept; its text id gives way to a row number (the rowid), assigned in the order (ts, id) listed them.
INSERT INTO `__new_analytics_events`("website_id", "ts", "name", "path", "visitor_id", "session_id", "source", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "device", "browser", "os", "country", "engagement_ms", "props") SELECT "website_id", "ts", "name", "path", "visitor_id", "session_id", "source", "referrer", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "device", "browser", "os", "country", "engagement_ms", "props" FROM `analytics_events` ORDER BY "ts", "id";--> statement-breakpoint
DROP TABLE `analytics_events`;--> statement-breakpoint
ALTER TABLE `__new_analytics_events` RENAME TO `analytics_events`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `analytics_events_website_ts_idx` ON `analytics_events` (`website_id`,`ts`);