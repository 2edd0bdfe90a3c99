-- Per-table versions of the tables this process's caches read (hosting's host, pointer and asset lookups, API
-- keys, website lists: VERSIONED_TABLES in src/db/write-generation.ts, which a test holds to this list). A write of
-- any connection bumps its table's row here in the same transaction, so a cache sees another process's commit to
-- its own tables without being dropped by commits that never touch them (the analytics writer thread commits many
-- times a second). Cascaded deletes fire the triggers too. A migration that rebuilds one of these tables drops its
-- triggers with it and must create them again.
CREATE TABLE `table_versions` (
  `name` text PRIMARY KEY NOT NULL,
  `version` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `table_versions` (`name`) VALUES ('websites'), ('website_domains'), ('website_slug_redirects'), ('website_publish_state'), ('assets'), ('api_keys'), ('api_key_websites');
--> statement-breakpoint
CREATE TRIGGER `websites_version_insert` AFTER INSERT ON `websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'websites';
END;
--> statement-breakpoint
CREATE TRIGGER `websites_version_update` AFTER UPDATE ON `websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'websites';
END;
--> statement-breakpoint
CREATE TRIGGER `websites_version_delete` AFTER DELETE ON `websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'websites';
END;
--> statement-breakpoint
CREATE TRIGGER `website_domains_version_insert` AFTER INSERT ON `website_domains` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_domains';
END;
--> statement-breakpoint
CREATE TRIGGER `website_domains_version_update` AFTER UPDATE ON `website_domains` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_domains';
END;
--> statement-breakpoint
CREATE TRIGGER `website_domains_version_delete` AFTER DELETE ON `website_domains` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_domains';
END;
--> statement-breakpoint
CREATE TRIGGER `website_slug_redirects_version_insert` AFTER INSERT ON `website_slug_redirects` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_slug_redirects';
END;
--> statement-breakpoint
CREATE TRIGGER `website_slug_redirects_version_update` AFTER UPDATE ON `website_slug_redirects` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_slug_redirects';
END;
--> statement-breakpoint
CREATE TRIGGER `website_slug_redirects_version_delete` AFTER DELETE ON `website_slug_redirects` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_slug_redirects';
END;
--> statement-breakpoint
CREATE TRIGGER `website_publish_state_version_insert` AFTER INSERT ON `website_publish_state` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_publish_state';
END;
--> statement-breakpoint
CREATE TRIGGER `website_publish_state_version_update` AFTER UPDATE ON `website_publish_state` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_publish_state';
END;
--> statement-breakpoint
CREATE TRIGGER `website_publish_state_version_delete` AFTER DELETE ON `website_publish_state` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'website_publish_state';
END;
--> statement-breakpoint
CREATE TRIGGER `assets_version_insert` AFTER INSERT ON `assets` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'assets';
END;
--> statement-breakpoint
CREATE TRIGGER `assets_version_update` AFTER UPDATE ON `assets` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'assets';
END;
--> statement-breakpoint
CREATE TRIGGER `assets_version_delete` AFTER DELETE ON `assets` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'assets';
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_version_insert` AFTER INSERT ON `api_keys` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_keys';
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_version_update` AFTER UPDATE ON `api_keys` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_keys';
END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_version_delete` AFTER DELETE ON `api_keys` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_keys';
END;
--> statement-breakpoint
CREATE TRIGGER `api_key_websites_version_insert` AFTER INSERT ON `api_key_websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_key_websites';
END;
--> statement-breakpoint
CREATE TRIGGER `api_key_websites_version_update` AFTER UPDATE ON `api_key_websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_key_websites';
END;
--> statement-breakpoint
CREATE TRIGGER `api_key_websites_version_delete` AFTER DELETE ON `api_key_websites` BEGIN
  UPDATE `table_versions` SET `version` = `version` + 1 WHERE `name` = 'api_key_websites';
END;
