CREATE TABLE `analytics_events` (
	`id` text PRIMARY KEY NOT NULL,
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
	`props` text,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `analytics_events_website_ts_idx` ON `analytics_events` (`website_id`,`ts`);--> statement-breakpoint
CREATE INDEX `analytics_events_visitor_idx` ON `analytics_events` (`website_id`,`visitor_id`,`ts`);--> statement-breakpoint
CREATE INDEX `analytics_events_ts_idx` ON `analytics_events` (`ts`);--> statement-breakpoint
CREATE TABLE `analytics_rollup_progress` (
	`id` text PRIMARY KEY NOT NULL,
	`rolled_to` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_rollups` (
	`website_id` text NOT NULL,
	`dimension` text NOT NULL,
	`hour` integer NOT NULL,
	`value` text NOT NULL,
	`pageviews` integer NOT NULL,
	`events` integer NOT NULL,
	`visitors` integer NOT NULL,
	`visits` integer NOT NULL,
	`bounces` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	PRIMARY KEY(`website_id`, `dimension`, `hour`, `value`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_settings` (
	`website_id` text PRIMARY KEY NOT NULL,
	`time_zone` text NOT NULL,
	`excluded_ip_ranges` text NOT NULL,
	`public_dashboard` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
