// Hashes of the stored TripleText nodes.
// returns: hash
MATCH (t:TripleText) RETURN t.hash;
