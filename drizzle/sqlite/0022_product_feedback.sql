CREATE TABLE `product_feedback` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`website_id` text,
	`category` text,
	`message` text NOT NULL,
	`operation_id` text,
	`request_id` text,
	`principal_type` text NOT NULL,
	`principal_id` text NOT NULL,
	`principal_label` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `product_feedback_created_idx` ON `product_feedback` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `product_feedback_organization_idx` ON `product_feedback` (`organization_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `product_feedback_website_idx` ON `product_feedback` (`website_id`);