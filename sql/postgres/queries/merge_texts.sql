-- Add new embedded texts when several workers write one index: a text another worker stored since it
-- was found missing is kept as it is. In hash order, so that two workers storing overlapping texts
-- wait on each other, never deadlock.
-- params: hashes text[], texts text[], embeddings vector[] (cast to the column type: vector or halfvec)
INSERT INTO kgqa.embedded_texts (hash, text, embedding)
SELECT s.hash, s.text, s.embedding
FROM unnest(%(hashes)s::text[], %(texts)s::text[], %(embeddings)s::vector[]) AS s(hash, text, embedding)
ORDER BY s.hash
ON CONFLICT (hash) DO NOTHING;
