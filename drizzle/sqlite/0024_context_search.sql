-- Full-text search of context documents (context.search): an FTS5 index over context_documents.text, kept in
-- sync by triggers (cascading deletes of a website fire them too). External content: the text is stored once,
-- in context_documents. A migration that rebuilds context_documents (new rowids) must end with
-- INSERT INTO context_documents_fts(context_documents_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE `context_documents_fts` USING fts5(`text`, content='context_documents', content_rowid='rowid');
--> statement-breakpoint
CREATE TRIGGER `context_documents_fts_insert` AFTER INSERT ON `context_documents` BEGIN
  INSERT INTO `context_documents_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `context_documents_fts_delete` AFTER DELETE ON `context_documents` BEGIN
  INSERT INTO `context_documents_fts`(`context_documents_fts`, rowid, `text`) VALUES ('delete', old.rowid, old.`text`);
END;
--> statement-breakpoint
CREATE TRIGGER `context_documents_fts_update` AFTER UPDATE OF `text` ON `context_documents` BEGIN
  INSERT INTO `context_documents_fts`(`context_documents_fts`, rowid, `text`) VALUES ('delete', old.rowid, old.`text`);
  INSERT INTO `context_documents_fts`(rowid, `text`) VALUES (new.rowid, new.`text`);
END;
--> statement-breakpoint
INSERT INTO `context_documents_fts`(`context_documents_fts`) VALUES ('rebuild');
