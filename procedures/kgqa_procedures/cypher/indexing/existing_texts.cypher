// Which of the given text hashes already have an embedding (the persistent embedding cache).
// params: $hashes STRING[]   returns: hash
UNWIND $hashes AS hh MATCH (t:kgqa_EmbeddedText {hash: hh}) RETURN t.hash;
