// One hop of a relation chain, forward, from one entity: a primary-key lookup (chains/step_out reads a
// list of ids, which Kùzu 0.11.3 plans as a scan of the Entity table: GraphStore.by_key chooses).
// params: $id STRING, $predicate STRING, $cap INT64   returns: from id, to id, to label, to is_literal, to types
MATCH (a:Entity {id: $id})-[t:Triple]->(b:Entity)
WHERE t.predicate = $predicate
RETURN a.id, b.id, b.label, b.is_literal, b.types
LIMIT $cap;
