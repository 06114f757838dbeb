// The distinct predicates each of the given entities is the object of (an untyped value's kinds),
// not its incoming triples: a year or a genre may be the object of thousands. (An IN filter: see graph/in_edges.)
// params: $ids STRING[]   returns: id, predicate
MATCH (:Entity)-[t:Triple]->(o:Entity)
WHERE o.id IN $ids
RETURN DISTINCT o.id, t.predicate;
