// Outgoing triples of the given entities. (An IN filter, not UNWIND + MATCH {id: ...}: see in_edges.)
// params: $ids STRING[]   returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE s.id IN $ids
RETURN s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal;
