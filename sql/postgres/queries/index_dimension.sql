-- The dimension of the stored embeddings (the vector column's type modifier); no row: no index tables.
-- returns: dim
SELECT a.atttypmod FROM pg_attribute a
WHERE a.attrelid = to_regclass('kgqa.embedded_texts') AND a.attname = 'embedding' AND NOT a.attisdropped;
