-- Bulk-add embedded texts (binary COPY; the caller passes only hashes not stored yet).
-- columns: hash text, text text, embedding vector (or halfvec: KGQA_HALF_VECTORS)
COPY kgqa.embedded_texts (hash, text, embedding) FROM STDIN WITH (FORMAT BINARY);
