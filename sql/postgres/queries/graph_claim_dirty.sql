-- Take the entities marked dirty (at most `lim`); rows another worker holds are skipped. Run inside the
-- transaction that rebuilds their hubs, then graph_clear_dirty deletes them there.
-- params: lim int   returns: entity_id
SELECT entity_id FROM kgqa.dirty_entities ORDER BY marked_at, entity_id LIMIT %(lim)s::int FOR UPDATE SKIP LOCKED;
