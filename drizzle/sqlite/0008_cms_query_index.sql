CREATE TABLE `cms_item_terms` (
	`item_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`state` text NOT NULL,
	`field_key` text NOT NULL,
	`term` text NOT NULL,
	`score` integer NOT NULL,
	PRIMARY KEY(`item_id`, `state`, `field_key`, `term`)
);
--> statement-breakpoint
CREATE INDEX `cms_item_terms_term_idx` ON `cms_item_terms` (`collection_id`,`state`,`term`,`item_id`);--> statement-breakpoint
CREATE TABLE `cms_item_uniques` (
	`collection_id` text NOT NULL,
	`field_key` text NOT NULL,
	`state` text NOT NULL,
	`hash` text NOT NULL,
	`item_id` text NOT NULL,
	PRIMARY KEY(`collection_id`, `field_key`, `state`, `hash`)
);
--> statement-breakpoint
CREATE INDEX `cms_item_uniques_item_idx` ON `cms_item_uniques` (`item_id`);--> statement-breakpoint
CREATE TABLE `cms_item_values` (
	`item_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`state` text NOT NULL,
	`field_key` text NOT NULL,
	`ord` integer NOT NULL,
	`num` real,
	`txt` text,
	`skey` text,
	`low` text,
	PRIMARY KEY(`item_id`, `state`, `field_key`, `ord`)
);
--> statement-breakpoint
CREATE INDEX `cms_item_values_num_idx` ON `cms_item_values` (`collection_id`,`state`,`field_key`,`num`,`item_id`);--> statement-breakpoint
CREATE INDEX `cms_item_values_text_idx` ON `cms_item_values` (`collection_id`,`state`,`field_key`,`skey`,`item_id`);--> statement-breakpoint
CREATE INDEX `cms_items_updated_idx` ON `cms_items` (`collection_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `cms_items_published_idx` ON `cms_items` (`collection_id`,`published_at`,`id`);