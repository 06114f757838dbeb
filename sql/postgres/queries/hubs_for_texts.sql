-- Which hubs embed the given texts (the direct strategy expands ANN hits, unique texts, to hubs).
-- params: hashes text[]   returns: text_hash, hub_id
SELECT DISTINCT v.text_hash, p.hub_id
FROM kgqa.hub_vectors v
JOIN kgqa.hub_paths p ON p.hash = v.path_hash
WHERE v.text_hash = ANY(%(hashes)s::text[]);
