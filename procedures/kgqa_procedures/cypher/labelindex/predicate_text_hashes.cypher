// Hashes of the stored PredicateText nodes.
// returns: hash
MATCH (t:PredicateText) RETURN t.hash;
