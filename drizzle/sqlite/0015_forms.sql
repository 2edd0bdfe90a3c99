CREATE TABLE `deployment_forms` (
	`deployment_id` text NOT NULL,
	`name` text NOT NULL,
	`page` text NOT NULL,
	`fields` text NOT NULL,
	PRIMARY KEY(`deployment_id`, `name`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `form_recipients` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`email` text NOT NULL,
	`token_hash` text NOT NULL,
	`confirmed_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `form_recipients_website_email_idx` ON `form_recipients` (`website_id`,`email`);--> statement-breakpoint
CREATE INDEX `form_recipients_token_idx` ON `form_recipients` (`token_hash`);--> statement-breakpoint
CREATE TABLE `form_settings` (
	`website_id` text NOT NULL,
	`form_name` text NOT NULL,
	`enabled` integer NOT NULL,
	`success_url` text,
	`notify` integer NOT NULL,
	`spam_sensitivity` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`website_id`, `form_name`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `form_submission_files` (
	`submission_id` text NOT NULL,
	`position` integer NOT NULL,
	`field` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	PRIMARY KEY(`submission_id`, `position`),
	FOREIGN KEY (`submission_id`) REFERENCES `form_submissions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_submission_files_sha256_idx` ON `form_submission_files` (`sha256`);--> statement-breakpoint
CREATE TABLE `form_submissions` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`form_name` text NOT NULL,
	`state` text NOT NULL,
	`values` text NOT NULL,
	`spam_reasons` text NOT NULL,
	`page` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `form_submissions_website_idx` ON `form_submissions` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `form_submissions_form_idx` ON `form_submissions` (`website_id`,`form_name`,`created_at`,`id`);