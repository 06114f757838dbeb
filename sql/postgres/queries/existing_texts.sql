-- Which of the given text hashes already have an embedding (the persistent embedding cache).
-- params: hashes text[]   returns: hash
SELECT hash FROM kgqa.embedded_texts WHERE hash = ANY(%(hashes)s::text[]);
