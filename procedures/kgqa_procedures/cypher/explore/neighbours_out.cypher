// One page of an entity's outgoing triples ($predicate '' = every predicate), in a stable order.
// params: $id STRING, $predicate STRING, $offset INT64, $limit INT64
// returns: predicate, o.id, o.label, o.types, o.is_literal
MATCH (s:Entity {id: $id})-[t:Triple]->(o:Entity)
WHERE $predicate = '' OR t.predicate = $predicate
RETURN t.predicate AS predicate, o.id AS id, o.label AS label, o.types AS types, o.is_literal AS is_literal
ORDER BY predicate, label, id SKIP $offset LIMIT $limit;
