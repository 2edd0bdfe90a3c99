CREATE TABLE `asset_generations` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`prompt` text NOT NULL,
	`references` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`asset_id`) REFERENCES `assets`(`id`) ON UPDATE no action ON DELETE cascade
);
