// Outgoing triples of the given entities.
// params: $ids STRING[]   returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
UNWIND $ids AS id
MATCH (s:Entity {id: id})-[t:Triple]->(o:Entity)
RETURN s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal;
