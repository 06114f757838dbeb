-- Hubs with their paths, for copying the index to another store.
-- params: ids text[]   returns: id, label, depth, signature, path_hash, path_text, triples
SELECT h.id, h.label, h.depth, h.signature, p.hash, p.text, p.triples::text
FROM kgqa.hubs h LEFT JOIN kgqa.hub_paths p ON p.hub_id = h.id
WHERE h.id = ANY(%(ids)s::text[])
ORDER BY h.id, p.hash;
