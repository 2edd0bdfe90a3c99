CREATE TABLE `analytics_daily_rollups` (
	`website_id` text NOT NULL,
	`dimension` text NOT NULL,
	`day` integer NOT NULL,
	`value` text NOT NULL,
	`pageviews` integer NOT NULL,
	`events` integer NOT NULL,
	`visitors` integer NOT NULL,
	`visits` integer NOT NULL,
	`bounces` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	PRIMARY KEY(`website_id`, `dimension`, `day`, `value`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `analytics_rollups_hour_idx` ON `analytics_rollups` (`hour`);
--> statement-breakpoint
-- Backfill: every whole UTC day already rolled up gets its daily rows from its hourly ones (later days get them when
-- housekeeping rolls up their last hour).
INSERT INTO `analytics_daily_rollups` (website_id, dimension, day, value, pageviews, events, visitors, visits, bounces, duration_ms)
SELECT website_id, dimension, (hour / 86400000) * 86400000, value, sum(pageviews), sum(events), sum(visitors), sum(visits), sum(bounces), sum(duration_ms)
FROM `analytics_rollups`
WHERE hour < (SELECT (rolled_to / 86400000) * 86400000 FROM `analytics_rollup_progress` WHERE id = 'hourly')
GROUP BY website_id, dimension, (hour / 86400000) * 86400000, value;
