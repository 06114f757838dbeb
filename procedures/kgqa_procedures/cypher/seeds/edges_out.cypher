// Outgoing triples of the given entities with the other end's label, types and literal flag.
// params: $ids STRING[]   returns: a.id, predicate, b.id, b.label, b.types, b.is_literal
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[t:Triple]->(b:Entity)
RETURN a.id, t.predicate, b.id, b.label, b.types, b.is_literal;
