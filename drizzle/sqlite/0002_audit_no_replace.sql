-- INSERT OR REPLACE / REPLACE INTO would silently overwrite an entry (SQLite fires no DELETE trigger for
-- REPLACE unless recursive_triggers is on): refuse any insert of an existing id.
CREATE TRIGGER audit_entries_no_replace BEFORE INSERT ON audit_entries
WHEN EXISTS (SELECT 1 FROM audit_entries WHERE id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'audit entries are immutable'); END;
