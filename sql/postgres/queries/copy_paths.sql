-- Bulk-add hub paths (binary COPY).
-- columns: hash text, hub_id text, text text, triples jsonb, length int4
COPY kgqa.hub_paths (hash, hub_id, text, triples, length) FROM STDIN WITH (FORMAT BINARY);
