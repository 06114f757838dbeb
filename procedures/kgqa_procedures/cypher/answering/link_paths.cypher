// The paths of one or two triples, in either direction, between two entities (a relationship or link
// question: "how is X related to Y", "is X cited by Y"). Both ends are primary-key lookups; ids are
// bound parameters.
// params: $a STRING, $b STRING, $limit INT64
// returns: nodes (the path's entities), rels (its triples; _src/_dst name the nodes' internal ids)
MATCH p = (a:Entity {id: $a})-[:Triple*1..2]-(b:Entity {id: $b})
RETURN nodes(p) AS nodes, rels(p) AS rels
LIMIT $limit;
