-- Bulk-add new embedded texts to the session's staging table (binary COPY).
-- columns: hash text, text text, embedding vector
COPY text_stage (hash, text, embedding) FROM STDIN WITH (FORMAT BINARY);
