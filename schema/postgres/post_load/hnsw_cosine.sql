-- The HNSW index (cosine) over the embedded texts. Created once, after the first bulk load (faster
-- than growing it row by row); pgvector keeps it current on later inserts and deletes.
-- tokens: {{m}} {{ef_construction}} (kgqa.config.AnnParams, KGQA_HNSW_M / KGQA_HNSW_EF_CONSTRUCTION)
CREATE INDEX IF NOT EXISTS embedded_texts_hnsw ON kgqa.embedded_texts
    USING hnsw (embedding vector_cosine_ops) WITH (m = {{m}}, ef_construction = {{ef_construction}});
