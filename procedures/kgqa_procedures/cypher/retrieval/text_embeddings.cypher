// Embeddings of the given texts as float32 bytes (the BLOB copy; fast to read in bulk).
// params: $hashes STRING[]   returns: hash, raw
UNWIND $hashes AS th MATCH (t:kgqa_EmbeddedText {hash: th}) RETURN t.hash, t.raw;
