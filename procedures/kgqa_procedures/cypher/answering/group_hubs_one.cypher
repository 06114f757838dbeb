// One hub's values of a key attribute it states directly: answering/group_hubs for one hub id, read from
// its primary key (the list form is planned as a scan of the graph; GraphStore.by_key chooses).
// answering/group_hubs_one_via: through an entity. The caller counts the hubs per value.
// params: $pid STRING, $pred STRING
// returns: key label, hub id, hub label
MATCH (p:Entity {id: $pid})-[k:Triple]->(m:Entity)
WHERE k.predicate = $pred AND m.label IS NOT NULL
RETURN DISTINCT m.label, p.id, p.label;
