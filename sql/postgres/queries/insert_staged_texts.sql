-- Move the staged texts into the index; a text another worker stored meanwhile is kept as it is.
-- In hash order, so that two workers storing overlapping texts wait on each other, never deadlock.
INSERT INTO kgqa.embedded_texts (hash, text, embedding)
SELECT hash, text, embedding FROM text_stage ORDER BY hash
ON CONFLICT (hash) DO NOTHING;
