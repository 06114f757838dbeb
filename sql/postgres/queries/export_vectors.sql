-- The HubVectors of the given hubs, for copying the index to another store.
-- params: ids text[]   returns: path_hash, level, text_hash
SELECT v.path_hash, v.level, v.text_hash
FROM kgqa.hub_vectors v JOIN kgqa.hub_paths p ON p.hash = v.path_hash
WHERE p.hub_id = ANY(%(ids)s::text[])
ORDER BY v.path_hash, v.level, v.text_hash;
