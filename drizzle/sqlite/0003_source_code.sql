CREATE TABLE `deployment_files` (
	`deployment_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`deployment_id`, `path`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sha256`) REFERENCES `website_file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deployment_files_sha256_idx` ON `deployment_files` (`sha256`);--> statement-breakpoint
CREATE TABLE `deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`status` text NOT NULL,
	`source_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_type` text NOT NULL,
	`created_by_id` text NOT NULL,
	`pages` text NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `deployments_website_idx` ON `deployments` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `website_edit_leases` (
	`website_id` text PRIMARY KEY NOT NULL,
	`lease_id` text NOT NULL,
	`holder_type` text NOT NULL,
	`holder_id` text NOT NULL,
	`holder_label` text NOT NULL,
	`acquired_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `website_file_contents` (
	`sha256` text PRIMARY KEY NOT NULL,
	`content` text NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	`touched_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `website_files` (
	`website_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by_type` text NOT NULL,
	`updated_by_id` text NOT NULL,
	PRIMARY KEY(`website_id`, `path`),
	FOREIGN KEY (`sha256`) REFERENCES `website_file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `website_files_sha256_idx` ON `website_files` (`sha256`);--> statement-breakpoint
CREATE TABLE `website_publish_state` (
	`website_id` text PRIMARY KEY NOT NULL,
	`published_deployment_id` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`published_deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE no action
);
