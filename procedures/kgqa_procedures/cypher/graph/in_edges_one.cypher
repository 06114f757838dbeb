// Incoming triples of one entity, found by its primary key (graph/in_edges filters a list, which
// Kùzu 0.11.3 evaluates against every entity; see out_edges_one).
// params: $id STRING   returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
MATCH (s:Entity)-[t:Triple]->(o:Entity {id: $id})
RETURN s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal;
