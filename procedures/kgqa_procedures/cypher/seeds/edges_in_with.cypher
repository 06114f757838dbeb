// Incoming triples of the given entities whose predicate is one of $predicates.
// params: $ids STRING[], $predicates STRING[]   returns: a.id, predicate, b.id, b.label, b.types, b.is_literal
UNWIND $ids AS id
MATCH (b:Entity)-[t:Triple]->(a:Entity {id: id})
WHERE list_contains($predicates, t.predicate)
RETURN a.id, t.predicate, b.id, b.label, b.types, b.is_literal;
