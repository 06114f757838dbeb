-- Every stored text hash in storage order (to copy the texts in the same order).
-- returns: hash
SELECT hash FROM kgqa.embedded_texts ORDER BY seq;
