-- What the stored paths' hashes, hub ids, texts and triples (as JSON text) hold, in bytes: the size of
-- the paths a resident copy of the index keeps (kgqa/vectorstores/pg_resident.py).
-- returns: bytes
SELECT coalesce(sum(octet_length(hash) + octet_length(hub_id) + octet_length(text) + octet_length(triples::text)), 0)
FROM kgqa.hub_paths;
