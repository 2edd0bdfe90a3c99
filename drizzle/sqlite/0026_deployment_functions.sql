CREATE TABLE `deployment_functions` (
	`deployment_id` text NOT NULL,
	`name` text NOT NULL,
	`file` text NOT NULL,
	`bundle_sha256` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`deployment_id`, `name`),
	FOREIGN KEY (`deployment_id`) REFERENCES `deployments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deployment_functions_bundle_idx` ON `deployment_functions` (`bundle_sha256`);