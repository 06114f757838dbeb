// One hop of a relation chain, backward, to one entity: a primary-key lookup (chains/step_in reads a
// list of ids, which Kùzu 0.11.3 plans as a scan of the Entity table: GraphStore.by_key chooses).
// params: $id STRING, $predicate STRING, $cap INT64   returns: to id, from id, from label, from is_literal, from types
MATCH (a:Entity)-[t:Triple]->(b:Entity {id: $id})
WHERE t.predicate = $predicate
RETURN b.id, a.id, a.label, a.is_literal, a.types
LIMIT $cap;
