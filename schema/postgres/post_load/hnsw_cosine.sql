-- The HNSW index (cosine) over the embedded texts. Created once, after the first bulk load (faster
-- than growing it row by row); pgvector keeps it current on later inserts and deletes.
CREATE INDEX IF NOT EXISTS embedded_texts_hnsw ON kgqa.embedded_texts
    USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64);
