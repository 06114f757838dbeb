// The hubs of a type that meet every constraint, over the whole graph, in one aggregate. A constraint
// {k, via, pred, ids}: the hub states `pred` with one of the value entities `ids`, directly (via = '')
// or through an entity it reaches by `via` (a contribution, an authors list). Values first: each
// value id is a primary-key lookup. Predicate names and ids are bound parameters, never spliced.
// params: $hub_type STRING, $constraints LIST(STRUCT), $needed INT64
// returns: n (the count of distinct hubs), hubs (a list of [id, label])
UNWIND $constraints AS c
UNWIND c.ids AS vid
MATCH (v:Entity {id: vid})<-[t2:Triple]-(h:Entity)
WHERE t2.predicate = c.pred
OPTIONAL MATCH (p2:Entity)-[t1:Triple]->(h)
WHERE c.via <> '' AND t1.predicate = c.via
WITH c, CASE WHEN c.via = '' THEN h ELSE p2 END AS p
WHERE p IS NOT NULL AND list_contains(p.types, $hub_type)
WITH p, count(DISTINCT c.k) AS met
WHERE met = $needed
RETURN count(p) AS n, collect([p.id, p.label]) AS hubs;
