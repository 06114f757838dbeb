// The triples stated by the given triple texts (DiFaR's hits): subject, predicate and object id.
// params: $hashes STRING[]   returns: hash, s.id, s.label, s.is_literal, predicate, object_id
UNWIND $hashes AS th
MATCH (t:kgqa_TripleText {hash: th})-[r:kgqa_TripleTextOf]->(s:Entity)
RETURN t.hash, s.id, s.label, s.is_literal, r.predicate, r.object_id;
