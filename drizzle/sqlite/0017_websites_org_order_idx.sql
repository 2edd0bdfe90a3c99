DROP INDEX `websites_org_idx`;--> statement-breakpoint
CREATE INDEX `websites_org_idx` ON `websites` (`organization_id`,`created_at`,`id`);