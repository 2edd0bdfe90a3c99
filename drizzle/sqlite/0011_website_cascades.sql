-- Rows left behind by websites deleted before the database owned these cascades (deployments, publish state,
-- deployment files and outputs; CMS rows of broken references): removed first, as the new foreign keys forbid them.
DELETE FROM `deployment_outputs` WHERE NOT EXISTS (SELECT 1 FROM `deployments` `d` JOIN `websites` `w` ON `w`.`id` = `d`.`website_id` WHERE `d`.`id` = `deployment_outputs`.`deployment_id`);
--> statement-breakpoint
DELETE FROM `deployment_files` WHERE NOT EXISTS (SELECT 1 FROM `deployments` `d` JOIN `websites` `w` ON `w`.`id` = `d`.`website_id` WHERE `d`.`id` = `deployment_files`.`deployment_id`);
--> statement-breakpoint
DELETE FROM `website_publish_state` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `website_publish_state`.`website_id`);
--> statement-breakpoint
DELETE FROM `deployments` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `deployments`.`website_id`);
--> statement-breakpoint
DELETE FROM `website_files` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `website_files`.`website_id`);
--> statement-breakpoint
DELETE FROM `website_edit_leases` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `website_edit_leases`.`website_id`);
--> statement-breakpoint
DELETE FROM `website_editors` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `website_editors`.`website_id`);
--> statement-breakpoint
DELETE FROM `api_key_websites` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `api_key_websites`.`website_id`);
--> statement-breakpoint
DELETE FROM `cms_item_values` WHERE NOT EXISTS (SELECT 1 FROM `cms_collections` `c` JOIN `websites` `w` ON `w`.`id` = `c`.`website_id` WHERE `c`.`id` = `cms_item_values`.`collection_id`);
--> statement-breakpoint
DELETE FROM `cms_item_terms` WHERE NOT EXISTS (SELECT 1 FROM `cms_collections` `c` JOIN `websites` `w` ON `w`.`id` = `c`.`website_id` WHERE `c`.`id` = `cms_item_terms`.`collection_id`);
--> statement-breakpoint
DELETE FROM `cms_item_uniques` WHERE NOT EXISTS (SELECT 1 FROM `cms_collections` `c` JOIN `websites` `w` ON `w`.`id` = `c`.`website_id` WHERE `c`.`id` = `cms_item_uniques`.`collection_id`);
--> statement-breakpoint
DELETE FROM `cms_fields` WHERE NOT EXISTS (SELECT 1 FROM `cms_collections` `c` JOIN `websites` `w` ON `w`.`id` = `c`.`website_id` WHERE `c`.`id` = `cms_fields`.`collection_id`);
--> statement-breakpoint
DELETE FROM `cms_items` WHERE NOT EXISTS (SELECT 1 FROM `cms_collections` `c` JOIN `websites` `w` ON `w`.`id` = `c`.`website_id` WHERE `c`.`id` = `cms_items`.`collection_id`) OR NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `cms_items`.`website_id`);
--> statement-breakpoint
DELETE FROM `cms_collections` WHERE NOT EXISTS (SELECT 1 FROM `websites` `w` WHERE `w`.`id` = `cms_collections`.`website_id`);
--> statement-breakpoint
-- Tables are rebuilt to change their foreign keys; the SQLite opener switches enforcement off while migrations run
-- (inside drizzle's transaction PRAGMA foreign_keys does nothing) and checks every reference afterwards.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_deployment_files` (
	`deployment_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`deployment_id`, `path`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sha256`) REFERENCES `website_file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_deployment_files`("deployment_id", "path", "sha256", "size") SELECT "deployment_id", "path", "sha256", "size" FROM `deployment_files`;--> statement-breakpoint
DROP TABLE `deployment_files`;--> statement-breakpoint
ALTER TABLE `__new_deployment_files` RENAME TO `deployment_files`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `deployment_files_sha256_idx` ON `deployment_files` (`sha256`);--> statement-breakpoint
CREATE TABLE `__new_deployment_outputs` (
	`deployment_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`deployment_id`, `path`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_deployment_outputs`("deployment_id", "path", "sha256", "content_type", "size") SELECT "deployment_id", "path", "sha256", "content_type", "size" FROM `deployment_outputs`;--> statement-breakpoint
DROP TABLE `deployment_outputs`;--> statement-breakpoint
ALTER TABLE `__new_deployment_outputs` RENAME TO `deployment_outputs`;--> statement-breakpoint
CREATE INDEX `deployment_outputs_sha256_idx` ON `deployment_outputs` (`sha256`);--> statement-breakpoint
CREATE TABLE `__new_website_publish_state` (
	`website_id` text PRIMARY KEY NOT NULL,
	`published_deployment_id` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`published_deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_website_publish_state`("website_id", "published_deployment_id", "updated_at") SELECT "website_id", "published_deployment_id", "updated_at" FROM `website_publish_state`;--> statement-breakpoint
DROP TABLE `website_publish_state`;--> statement-breakpoint
ALTER TABLE `__new_website_publish_state` RENAME TO `website_publish_state`;--> statement-breakpoint
CREATE INDEX `website_publish_state_deployment_idx` ON `website_publish_state` (`published_deployment_id`);--> statement-breakpoint
CREATE TABLE `__new_cms_items` (
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
	`published_at` integer,
	FOREIGN KEY (`collection_id`) REFERENCES `cms_collections`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_cms_items`("id", "collection_id", "website_id", "slug", "draft_values", "published_values", "status", "version", "archived", "position", "created_at", "updated_at", "published_at") SELECT "id", "collection_id", "website_id", "slug", "draft_values", "published_values", "status", "version", "archived", "position", "created_at", "updated_at", "published_at" FROM `cms_items`;--> statement-breakpoint
DROP TABLE `cms_items`;--> statement-breakpoint
ALTER TABLE `__new_cms_items` RENAME TO `cms_items`;--> statement-breakpoint
CREATE UNIQUE INDEX `cms_items_slug_key` ON `cms_items` (`collection_id`,`slug`);--> statement-breakpoint
CREATE INDEX `cms_items_collection_idx` ON `cms_items` (`collection_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `cms_items_position_idx` ON `cms_items` (`collection_id`,`position`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `cms_items_updated_idx` ON `cms_items` (`collection_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `cms_items_published_idx` ON `cms_items` (`collection_id`,`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `cms_items_website_idx` ON `cms_items` (`website_id`);--> statement-breakpoint
CREATE TABLE `__new_website_editors` (
	`website_id` text NOT NULL,
	`user_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_type` text NOT NULL,
	`created_by_id` text NOT NULL,
	`pending_verification` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`website_id`, `user_id`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_website_editors`("website_id", "user_id", "organization_id", "role", "created_at", "created_by_type", "created_by_id", "pending_verification") SELECT "website_id", "user_id", "organization_id", "role", "created_at", "created_by_type", "created_by_id", "pending_verification" FROM `website_editors`;--> statement-breakpoint
DROP TABLE `website_editors`;--> statement-breakpoint
ALTER TABLE `__new_website_editors` RENAME TO `website_editors`;--> statement-breakpoint
CREATE INDEX `website_editors_user_idx` ON `website_editors` (`user_id`);--> statement-breakpoint
CREATE INDEX `website_editors_org_idx` ON `website_editors` (`organization_id`);--> statement-breakpoint
CREATE TABLE `__new_cms_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`index_stale` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_cms_collections`("id", "website_id", "slug", "name", "description", "created_at", "updated_at", "index_stale") SELECT "id", "website_id", "slug", "name", "description", "created_at", "updated_at", "index_stale" FROM `cms_collections`;--> statement-breakpoint
DROP TABLE `cms_collections`;--> statement-breakpoint
ALTER TABLE `__new_cms_collections` RENAME TO `cms_collections`;--> statement-breakpoint
CREATE UNIQUE INDEX `cms_collections_slug_key` ON `cms_collections` (`website_id`,`slug`);--> statement-breakpoint
CREATE TABLE `__new_cms_fields` (
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
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`collection_id`) REFERENCES `cms_collections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_cms_fields`("id", "collection_id", "key", "name", "help_text", "type", "required", "unique", "default_value", "validations", "options", "position", "created_at", "updated_at") SELECT "id", "collection_id", "key", "name", "help_text", "type", "required", "unique", "default_value", "validations", "options", "position", "created_at", "updated_at" FROM `cms_fields`;--> statement-breakpoint
DROP TABLE `cms_fields`;--> statement-breakpoint
ALTER TABLE `__new_cms_fields` RENAME TO `cms_fields`;--> statement-breakpoint
CREATE UNIQUE INDEX `cms_fields_key_key` ON `cms_fields` (`collection_id`,`key`);--> statement-breakpoint
CREATE TABLE `__new_api_key_websites` (
	`api_key_id` text NOT NULL,
	`website_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`api_key_id`, `website_id`),
	FOREIGN KEY (`api_key_id`) REFERENCES `api_keys`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_api_key_websites`("api_key_id", "website_id", "created_at") SELECT "api_key_id", "website_id", "created_at" FROM `api_key_websites`;--> statement-breakpoint
DROP TABLE `api_key_websites`;--> statement-breakpoint
ALTER TABLE `__new_api_key_websites` RENAME TO `api_key_websites`;--> statement-breakpoint
CREATE INDEX `api_key_websites_website_idx` ON `api_key_websites` (`website_id`);--> statement-breakpoint
CREATE TABLE `__new_deployments` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`status` text NOT NULL,
	`source_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`created_by_type` text NOT NULL,
	`created_by_id` text NOT NULL,
	`pages` text NOT NULL,
	`error` text,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_deployments`("id", "website_id", "status", "source_hash", "created_at", "created_by_type", "created_by_id", "pages", "error") SELECT "id", "website_id", "status", "source_hash", "created_at", "created_by_type", "created_by_id", "pages", "error" FROM `deployments`;--> statement-breakpoint
DROP TABLE `deployments`;--> statement-breakpoint
ALTER TABLE `__new_deployments` RENAME TO `deployments`;--> statement-breakpoint
CREATE INDEX `deployments_website_idx` ON `deployments` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `__new_website_edit_leases` (
	`website_id` text PRIMARY KEY NOT NULL,
	`lease_id` text NOT NULL,
	`holder_type` text NOT NULL,
	`holder_id` text NOT NULL,
	`holder_label` text NOT NULL,
	`acquired_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_website_edit_leases`("website_id", "lease_id", "holder_type", "holder_id", "holder_label", "acquired_at", "expires_at") SELECT "website_id", "lease_id", "holder_type", "holder_id", "holder_label", "acquired_at", "expires_at" FROM `website_edit_leases`;--> statement-breakpoint
DROP TABLE `website_edit_leases`;--> statement-breakpoint
ALTER TABLE `__new_website_edit_leases` RENAME TO `website_edit_leases`;--> statement-breakpoint
CREATE TABLE `__new_website_files` (
	`website_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by_type` text NOT NULL,
	`updated_by_id` text NOT NULL,
	PRIMARY KEY(`website_id`, `path`),
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sha256`) REFERENCES `website_file_contents`(`sha256`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_website_files`("website_id", "path", "sha256", "size", "updated_at", "updated_by_type", "updated_by_id") SELECT "website_id", "path", "sha256", "size", "updated_at", "updated_by_type", "updated_by_id" FROM `website_files`;--> statement-breakpoint
DROP TABLE `website_files`;--> statement-breakpoint
ALTER TABLE `__new_website_files` RENAME TO `website_files`;--> statement-breakpoint
CREATE INDEX `website_files_sha256_idx` ON `website_files` (`sha256`);
