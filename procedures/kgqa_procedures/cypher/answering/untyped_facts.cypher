// Every fact of the subjects without a type, one and two hops out (through an entity that is not a
// literal): the catalog of an index built without hub types (kgqa/answering/untyped.py), which splits
// the subjects into kinds by the predicates they share and drops the two-hop facts through a hub of
// the same kind.
// params: $limit INT64
// returns: hub id, hub label, via predicate, middle id, middle label, predicate, value id, value label, value is literal
MATCH (p:Entity)-[t:Triple]->(v:Entity)
WHERE size(p.types) = 0
RETURN p.id AS hub, p.label AS hub_label, '' AS via, '' AS mid, '' AS mid_label, t.predicate AS pred, v.id AS value, v.label AS value_label, v.is_literal AS literal
UNION ALL
MATCH (p:Entity)-[t1:Triple]->(m:Entity)-[t2:Triple]->(v:Entity)
WHERE size(p.types) = 0 AND NOT m.is_literal AND v.id <> p.id
RETURN p.id AS hub, p.label AS hub_label, t1.predicate AS via, m.id AS mid, m.label AS mid_label, t2.predicate AS pred, v.id AS value, v.label AS value_label, v.is_literal AS literal
LIMIT $limit;
