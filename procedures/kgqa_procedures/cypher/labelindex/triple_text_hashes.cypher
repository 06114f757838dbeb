// Hashes of the stored TripleText nodes.
// returns: hash
MATCH (t:kgqa_TripleText) RETURN t.hash;
