// Outgoing triples of one entity, found by its primary key (graph/out_edges filters a list, which
// Kùzu 0.11.3 evaluates against every entity: 72 ms for one id at 10^6 triples, this 2-4 ms).
// params: $id STRING   returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
MATCH (s:Entity {id: $id})-[t:Triple]->(o:Entity)
RETURN s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal;
