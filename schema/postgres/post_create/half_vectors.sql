-- A new, empty index stores its embeddings as half vectors (halfvec: 2 bytes per dimension instead of
-- 4; KGQA_HALF_VECTORS). Run only right after the tables were created, before any text is written.
-- tokens: {{dim}}
ALTER TABLE kgqa.embedded_texts ALTER COLUMN embedding TYPE halfvec({{dim}});
