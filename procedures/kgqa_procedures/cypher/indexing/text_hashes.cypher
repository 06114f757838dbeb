// Every stored text hash in storage order (to copy the texts in the same order).
// returns: hash
MATCH (t:kgqa_EmbeddedText) RETURN t.hash ORDER BY offset(id(t));
