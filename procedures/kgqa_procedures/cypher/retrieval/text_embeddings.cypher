// Embeddings of the given texts (read as Arrow).
// params: $hashes STRING[]   returns: hash, embedding
UNWIND $hashes AS th MATCH (t:EmbeddedText {hash: th}) RETURN t.hash AS hash, t.embedding AS embedding;
