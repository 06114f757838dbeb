// Delete PredicateText nodes (texts no longer in the graph) with their edges.
// params: $hashes STRING[]
UNWIND $hashes AS th MATCH (t:PredicateText {hash: th}) DETACH DELETE t;
