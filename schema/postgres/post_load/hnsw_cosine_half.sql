-- The HNSW index (cosine) over embedded texts stored as half vectors (halfvec: 2 bytes per dimension,
-- KGQA_HALF_VECTORS). Created once, after the first bulk load; pgvector keeps it current after that.
-- tokens: {{m}} {{ef_construction}} (kgqa.config.AnnParams, KGQA_HNSW_M / KGQA_HNSW_EF_CONSTRUCTION)
CREATE INDEX IF NOT EXISTS embedded_texts_hnsw ON kgqa.embedded_texts
    USING hnsw (embedding halfvec_cosine_ops) WITH (m = {{m}}, ef_construction = {{ef_construction}});
