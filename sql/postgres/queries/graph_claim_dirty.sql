-- Take the dirty marks (at most `lim`, oldest first); rows another worker holds are skipped. Run inside
-- the transaction that rebuilds their hubs; graph_clear_dirty deletes them there.
-- params: lim int   returns: seq, entity_id
SELECT seq, entity_id FROM kgqa.dirty_entities ORDER BY seq LIMIT %(lim)s::int FOR UPDATE SKIP LOCKED;
