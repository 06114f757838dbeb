-- Hub paths by hash, triples as JSON text.
-- params: hashes text[]   returns: hash, hub_id, text, triples
SELECT hash, hub_id, text, triples::text FROM kgqa.hub_paths WHERE hash = ANY(%(hashes)s::text[]);
