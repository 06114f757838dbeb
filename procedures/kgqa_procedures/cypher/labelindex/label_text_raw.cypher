// Stored LabelText embeddings as float32 bytes, to reuse them for identical texts elsewhere.
// params: $hashes STRING[]   returns: hash, raw
UNWIND $hashes AS th MATCH (t:kgqa_LabelText {hash: th}) RETURN t.hash, t.raw;
