CREATE TABLE `assets` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`sha256` text NOT NULL,
	`name` text NOT NULL,
	`folder` text NOT NULL,
	`alt` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`width` integer,
	`height` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `assets_website_idx` ON `assets` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `assets_sha256_idx` ON `assets` (`sha256`,`website_id`);