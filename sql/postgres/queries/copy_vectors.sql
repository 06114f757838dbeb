-- Bulk-add HubVectors (binary COPY).
-- columns: path_hash text, level text, text_hash text
COPY kgqa.hub_vectors (path_hash, level, text_hash) FROM STDIN WITH (FORMAT BINARY);
