-- Whether the HNSW index over the embedded texts exists.
-- returns: exists
SELECT to_regclass('kgqa.embedded_texts_hnsw') IS NOT NULL;
