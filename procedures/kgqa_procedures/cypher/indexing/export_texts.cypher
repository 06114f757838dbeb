// Texts with their embeddings as float32 bytes, for copying the index without re-embedding.
// params: $hashes STRING[]   returns: hash, text, raw
UNWIND $hashes AS th MATCH (t:kgqa_EmbeddedText {hash: th}) RETURN t.hash, t.text, t.raw ORDER BY offset(id(t));
