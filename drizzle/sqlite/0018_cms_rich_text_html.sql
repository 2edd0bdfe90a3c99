ALTER TABLE `cms_items` ADD `draft_html` text;--> statement-breakpoint
ALTER TABLE `cms_items` ADD `published_html` text;