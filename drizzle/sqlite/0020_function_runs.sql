CREATE TABLE `function_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`function_name` text NOT NULL,
	`trigger` text NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`logs` text NOT NULL,
	`dropped_logs` integer NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `function_runs_website_idx` ON `function_runs` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `function_runs_function_idx` ON `function_runs` (`website_id`,`function_name`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `function_runs_created_idx` ON `function_runs` (`created_at`);