// One level of a breadth-first search: the triples touching any entity of the frontier, both
// directions, at most $limit rows per direction (the fan-out cap). One query per level, never per entity.
// params: $ids STRING[], $limit INT64   returns: sid, predicate, oid
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE s.id IN $ids
RETURN s.id AS sid, t.predicate AS predicate, o.id AS oid LIMIT $limit
UNION ALL
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE o.id IN $ids
RETURN s.id AS sid, t.predicate AS predicate, o.id AS oid LIMIT $limit;
