// One page of an entity's incoming triples ($predicate '' = every predicate), in a stable order.
// params: $id STRING, $predicate STRING, $offset INT64, $limit INT64
// returns: predicate, s.id, s.label, s.types, s.is_literal
MATCH (s:Entity)-[t:Triple]->(o:Entity {id: $id})
WHERE $predicate = '' OR t.predicate = $predicate
RETURN t.predicate AS predicate, s.id AS id, s.label AS label, s.types AS types, s.is_literal AS is_literal
ORDER BY predicate, label, id SKIP $offset LIMIT $limit;
