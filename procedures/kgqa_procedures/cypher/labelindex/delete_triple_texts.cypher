// Delete TripleText nodes no longer in the graph; their links were removed first, so no DETACH.
// params: $hashes STRING[]
UNWIND $hashes AS th MATCH (t:kgqa_TripleText {hash: th}) DELETE t;
