// Delete TripleText nodes (texts no longer in the graph) with their edges.
// params: $hashes STRING[]
UNWIND $hashes AS th MATCH (t:TripleText {hash: th}) DETACH DELETE t;
