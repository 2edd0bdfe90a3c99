CREATE TABLE `website_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`hostname` text NOT NULL,
	`kind` text NOT NULL,
	`paired_with_id` text,
	`is_primary` integer NOT NULL,
	`status` text NOT NULL,
	`token` text NOT NULL,
	`verified_at` integer,
	`failing_since` integer,
	`last_checked_at` integer,
	`checks` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `website_domains_hostname_key` ON `website_domains` (`hostname`);--> statement-breakpoint
CREATE INDEX `website_domains_website_idx` ON `website_domains` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `website_domains_org_idx` ON `website_domains` (`organization_id`);--> statement-breakpoint
CREATE INDEX `website_domains_check_idx` ON `website_domains` (`last_checked_at`);--> statement-breakpoint
CREATE TABLE `website_slug_redirects` (
	`slug` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `website_slug_redirects_website_idx` ON `website_slug_redirects` (`website_id`);