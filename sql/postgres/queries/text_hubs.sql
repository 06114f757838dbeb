-- How many hubs embed each of the given texts, and the first %(limit)s of them by id (the direct
-- strategy expands ANN hits to hubs; a venue or a predicate is shared by thousands of hubs).
-- params: hashes text[], limit integer   returns: text_hash, fanout, hubs (at most limit)
SELECT v.text_hash, count(DISTINCT p.hub_id),
       (array_agg(DISTINCT p.hub_id COLLATE "C" ORDER BY p.hub_id COLLATE "C"))[1:%(limit)s]
FROM kgqa.hub_vectors v
JOIN kgqa.hub_paths p ON p.hash = v.path_hash
WHERE v.text_hash = ANY(%(hashes)s::text[])
GROUP BY v.text_hash;
