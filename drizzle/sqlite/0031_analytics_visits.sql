CREATE TABLE `analytics_visits` (
	`website_id` text NOT NULL,
	`visitor_id` text NOT NULL,
	`session_id` text NOT NULL,
	`ts` integer NOT NULL,
	`source` text NOT NULL,
	`referrer` text NOT NULL,
	`utm_source` text NOT NULL,
	`utm_medium` text NOT NULL,
	`utm_campaign` text NOT NULL,
	`utm_term` text NOT NULL,
	`utm_content` text NOT NULL,
	PRIMARY KEY(`website_id`, `visitor_id`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `analytics_events_visitor_idx`;--> statement-breakpoint
-- Visits under way go on: each visitor's latest event of the last hour (SQLite takes the bare columns from the row of max(ts)).
INSERT INTO `analytics_visits` (website_id, visitor_id, session_id, ts, source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content)
SELECT website_id, visitor_id, session_id, max(ts), source, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content
FROM `analytics_events` WHERE ts >= CAST(unixepoch('subsec') * 1000 AS integer) - 3600000 GROUP BY website_id, visitor_id;
