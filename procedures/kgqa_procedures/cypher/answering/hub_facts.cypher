// Every fact of the hubs of one type, one and two hops out (through a non-hub entity such as a
// contribution or an authors list): what exact answers link names against and read values from.
// params: $hub_type STRING, $limit INT64
// returns: hub id, hub label, via predicate, middle id, middle label, predicate, value id, value label, value is literal
MATCH (p:Entity)-[t:Triple]->(v:Entity)
WHERE list_contains(p.types, $hub_type)
RETURN p.id AS hub, p.label AS hub_label, '' AS via, '' AS mid, '' AS mid_label, t.predicate AS pred, v.id AS value, v.label AS value_label, v.is_literal AS literal
UNION ALL
MATCH (p:Entity)-[t1:Triple]->(m:Entity)-[t2:Triple]->(v:Entity)
WHERE list_contains(p.types, $hub_type) AND NOT m.is_literal AND NOT list_contains(m.types, $hub_type)
  AND v.id <> p.id
RETURN p.id AS hub, p.label AS hub_label, t1.predicate AS via, m.id AS mid, m.label AS mid_label, t2.predicate AS pred, v.id AS value, v.label AS value_label, v.is_literal AS literal
LIMIT $limit;
