CREATE TABLE `ai_credit_reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`credits` real NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ai_credit_reservations_expiry_idx` ON `ai_credit_reservations` (`expires_at`);--> statement-breakpoint
-- Reservations held before this migration have no row, so nothing could ever expire them: a crash between
-- reserve and settle stranded them for good. Start every account from zero; the rows now carry what is held.
UPDATE `billing_accounts` SET `ai_credits_reserved` = 0;
