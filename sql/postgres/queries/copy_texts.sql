-- Bulk-add embedded texts (binary COPY; the caller passes only hashes not stored yet).
-- columns: hash text, text text, embedding vector
COPY kgqa.embedded_texts (hash, text, embedding) FROM STDIN WITH (FORMAT BINARY);
