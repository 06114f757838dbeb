-- Global ANN search (thesis Alg. 8) over the embedded texts with the HNSW index (cosine distance).
-- params: query vector, k int   returns: hash, text, similarity
SELECT hash, text, 1 - (embedding <=> %(query)s::vector) AS similarity
FROM kgqa.embedded_texts
ORDER BY embedding <=> %(query)s::vector
LIMIT %(k)s::integer;
