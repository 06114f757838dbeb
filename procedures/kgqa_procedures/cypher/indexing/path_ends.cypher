// The stored paths of the given hubs, for the entity each path ends at (last triple's object).
// params: $ids STRING[]   returns: hub_id, triples
UNWIND $ids AS hid
MATCH (h:Hub {id: hid})-[:HasPath]->(p:HubPath)
RETURN h.id, p.triples;
