// Incoming triples of the given entities. (An IN filter, not UNWIND + MATCH {id: ...}: Kùzu plans
// the latter as a scan of the triples, ~10x slower at 10^5 triples.)
// params: $ids STRING[]   returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE o.id IN $ids
RETURN s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal;
