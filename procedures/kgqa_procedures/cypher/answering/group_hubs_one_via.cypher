// One hub's values of a key attribute it states through an entity it reaches by `via` (its authors'
// affiliations): answering/group_hubs for one hub id, read from its primary key.
// params: $pid STRING, $via STRING, $pred STRING
// returns: key label, hub id, hub label
MATCH (p:Entity {id: $pid})-[k1:Triple]->(m:Entity)-[k2:Triple]->(v:Entity)
WHERE k1.predicate = $via AND k2.predicate = $pred AND v.label IS NOT NULL
RETURN DISTINCT v.label, p.id, p.label;
