// Hashes of the stored PredicateText nodes.
// returns: hash
MATCH (t:kgqa_PredicateText) RETURN t.hash;
