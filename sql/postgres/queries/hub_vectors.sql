-- Every HubVector of the given hubs (thesis Alg. 9 without the filter loop: hubs are small), each
-- path's vectors in text storage order (ties between a path's vectors go to the text stored first).
-- params: hubs text[]   returns: hub_id, path_hash, level, text, text_hash
SELECT p.hub_id, v.path_hash, v.level, t.text, t.hash
FROM kgqa.hub_paths p
JOIN kgqa.hub_vectors v ON v.path_hash = p.hash
JOIN kgqa.embedded_texts t ON t.hash = v.text_hash
WHERE p.hub_id = ANY(%(hubs)s::text[])
ORDER BY v.path_hash, t.seq;
