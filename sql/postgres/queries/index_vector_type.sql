-- The type of the stored embeddings: vector (4 bytes per dimension) or halfvec (2); no row: no index tables.
-- returns: type name
SELECT t.typname FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attrelid = to_regclass('kgqa.embedded_texts') AND a.attname = 'embedding' AND NOT a.attisdropped;
