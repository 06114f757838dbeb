-- Bulk-add hubs (binary COPY).
-- columns: id text, label text, depth int4, path_count int4, signature text
COPY kgqa.hubs (id, label, depth, path_count, signature) FROM STDIN WITH (FORMAT BINARY);
