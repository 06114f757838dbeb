-- The HubVectors that embed the given texts: which hub paths, at which level.
-- params: hashes text[]   returns: text_hash, hub_id, path_hash, level, text
SELECT v.text_hash, p.hub_id, v.path_hash, v.level, t.text
FROM kgqa.hub_vectors v
JOIN kgqa.hub_paths p ON p.hash = v.path_hash
JOIN kgqa.embedded_texts t ON t.hash = v.text_hash
WHERE v.text_hash = ANY(%(hashes)s::text[]);
