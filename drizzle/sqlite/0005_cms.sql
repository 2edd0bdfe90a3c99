CREATE TABLE `cms_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cms_collections_slug_key` ON `cms_collections` (`website_id`,`slug`);--> statement-breakpoint
CREATE TABLE `cms_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`collection_id` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`help_text` text NOT NULL,
	`type` text NOT NULL,
	`required` integer NOT NULL,
	`unique` integer NOT NULL,
	`default_value` text,
	`validations` text NOT NULL,
	`options` text NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cms_fields_key_key` ON `cms_fields` (`collection_id`,`key`);--> statement-breakpoint
CREATE TABLE `cms_items` (
	`id` text PRIMARY KEY NOT NULL,
	`collection_id` text NOT NULL,
	`website_id` text NOT NULL,
	`slug` text NOT NULL,
	`draft_values` text NOT NULL,
	`published_values` text,
	`status` text NOT NULL,
	`version` integer NOT NULL,
	`archived` integer NOT NULL,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`published_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cms_items_slug_key` ON `cms_items` (`collection_id`,`slug`);--> statement-breakpoint
CREATE INDEX `cms_items_collection_idx` ON `cms_items` (`collection_id`,`created_at`,`id`);