// The hubs of a type that state `pred` with one value entity: answering/matching_hubs for one value id
// and a direct constraint, read from its primary key (the list form is planned as a scan of the graph;
// GraphStore.by_key chooses). answering/matching_hubs_one_via: through an entity. The caller intersects.
// params: $vid STRING, $pred STRING, $hub_type STRING
// returns: id, label (distinct hubs)
MATCH (v:Entity {id: $vid})<-[t:Triple]-(p:Entity)
WHERE t.predicate = $pred AND list_contains(p.types, $hub_type)
RETURN DISTINCT p.id, p.label;
