CREATE TABLE `context_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`website_id` text NOT NULL,
	`name` text NOT NULL,
	`media_type` text NOT NULL,
	`size` integer NOT NULL,
	`blob_hash` text NOT NULL,
	`text` text NOT NULL,
	`page_offsets` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`website_id`) REFERENCES `websites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `context_documents_website_idx` ON `context_documents` (`website_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `context_documents_blob_idx` ON `context_documents` (`blob_hash`,`website_id`);