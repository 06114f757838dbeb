// One page of the triples of one predicate, in a stable order (a schema view's sample).
// params: $predicate STRING, $offset INT64, $limit INT64
// returns: s.id, s.label, s.is_literal, predicate, o.id, o.label, o.is_literal
MATCH (s:Entity)-[t:Triple]->(o:Entity)
WHERE t.predicate = $predicate
RETURN s.id AS sid, s.label, s.is_literal, t.predicate, o.id AS oid, o.label, o.is_literal
ORDER BY sid, oid SKIP $offset LIMIT $limit;
