// The stored paths of the given hubs, for the entity each path ends at (last triple's object).
// params: $ids STRING[]   returns: hub_id, triples
UNWIND $ids AS hid
MATCH (h:kgqa_Hub {id: hid})-[:kgqa_HasPath]->(p:kgqa_HubPath)
RETURN h.id, p.triples;
