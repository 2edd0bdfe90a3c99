ALTER TABLE `cms_collections` ADD `index_stale` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Collections that existed before the query index get it rebuilt from their items at the next start.
UPDATE `cms_collections` SET `index_stale` = 1;
