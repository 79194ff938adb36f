-- One counter of registry changes, bumped by triggers in the same
-- transaction as every write to the extensions registry (rows, versions,
-- their option settings), so a process keeps the enabled extensions
-- decoded in memory and reads only this row to know whether another
-- process changed them (extensions.Manager.Active). revision counts the
-- rewrites of one version's record (a re-stamp, a revalidation), so a
-- decoded package is kept until its record changes.
CREATE TABLE registry_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n  INTEGER NOT NULL
);
INSERT INTO registry_generation(id, n) VALUES (1, 1);

ALTER TABLE extension_versions ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER extensions_insert_generation AFTER INSERT ON extensions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER extensions_update_generation AFTER UPDATE ON extensions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER extensions_delete_generation AFTER DELETE ON extensions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER versions_insert_generation AFTER INSERT ON extension_versions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER versions_update_generation AFTER UPDATE ON extension_versions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER versions_delete_generation AFTER DELETE ON extension_versions
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_insert_generation AFTER INSERT ON settings WHEN NEW.key LIKE 'extension.%'
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_update_generation AFTER UPDATE ON settings WHEN NEW.key LIKE 'extension.%' OR OLD.key LIKE 'extension.%'
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
CREATE TRIGGER settings_delete_generation AFTER DELETE ON settings WHEN OLD.key LIKE 'extension.%'
BEGIN UPDATE registry_generation SET n = n + 1 WHERE id = 1; END;
