-- Every HubVector of the given hubs (thesis Alg. 9 without the filter loop: hubs are small), one row
-- per distinct text: the text with its storage order and embedding, and the (hub, path, level) of each
-- HubVector that embeds it. A text is shared by about three hubs, so each embedding is read and sent
-- once (the texts are then read by their key: 4,461 lookups in place of 13,051 for 90 hubs at 10^6).
-- The embedding comes as pgvector's binary form of a float32 vector (exact for halfvec columns too), which
-- the store reads for all rows at once.
-- params: hubs text[]   returns: hash, text, seq, embedding (bytea), hub_ids, path_hashes, levels
WITH vectors AS (
    SELECT p.hub_id, v.path_hash, v.level, v.text_hash
    FROM kgqa.hub_paths p
    JOIN kgqa.hub_vectors v ON v.path_hash = p.hash
    WHERE p.hub_id = ANY(%(hubs)s::text[])
), by_text AS (
    SELECT text_hash, array_agg(hub_id) AS hub_ids, array_agg(path_hash) AS path_hashes, array_agg(level) AS levels
    FROM vectors
    GROUP BY text_hash
)
SELECT t.hash, t.text, t.seq, vector_send(t.embedding::vector), b.hub_ids, b.path_hashes, b.levels
FROM by_text b
JOIN kgqa.embedded_texts t ON t.hash = b.text_hash;
