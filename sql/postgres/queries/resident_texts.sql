-- Every embedded text's hash, storage order and embedding (pgvector's binary form of a halfvec: its
-- dimension, a spare int16, then float16 values), fixed-width rows for kgqa/vectorstores/pg_resident.py
-- to parse at once. Only for an index stored as halfvec.
COPY (SELECT hash, seq, halfvec_send(embedding) FROM kgqa.embedded_texts) TO STDOUT (FORMAT binary);
