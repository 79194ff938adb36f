-- Extensions installed from a marketplace: the marketplace repository is
-- source_url, plugin names its entry, and plugin_source records where the
-- entry pointed when this version was installed (a folder of the
-- marketplace repository, or another repository), so an update that
-- finds the entry pointing elsewhere asks for review.
ALTER TABLE extensions ADD COLUMN plugin TEXT NOT NULL DEFAULT '';
ALTER TABLE extensions ADD COLUMN plugin_source TEXT NOT NULL DEFAULT '';
