-- Texts with their embeddings (read with a binary cursor), in storage order.
-- params: hashes text[]   returns: hash, text, embedding
SELECT hash, text, embedding FROM kgqa.embedded_texts WHERE hash = ANY(%(hashes)s::text[]) ORDER BY seq;
