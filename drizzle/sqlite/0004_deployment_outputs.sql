CREATE TABLE `deployment_outputs` (
	`deployment_id` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`deployment_id`, `path`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE no action
);
