// The hubs of a type that reach, by `via`, an entity stating `pred` with one value entity (a paper whose
// contribution states the method): answering/matching_hubs for one value id, read from its primary key.
// params: $vid STRING, $pred STRING, $via STRING, $hub_type STRING
// returns: id, label (distinct hubs)
MATCH (v:Entity {id: $vid})<-[t2:Triple]-(h:Entity)<-[t1:Triple]-(p:Entity)
WHERE t2.predicate = $pred AND t1.predicate = $via AND list_contains(p.types, $hub_type)
RETURN DISTINCT p.id, p.label;
