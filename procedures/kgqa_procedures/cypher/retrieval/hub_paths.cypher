// Every stored path of the given hubs, read through each hub's HasPath edges: for all of a few hubs'
// paths one read beats a primary-key lookup per path (10^6, the ~400 paths of 25 random hubs, cold:
// median 109 ms against 316). hub_paths_at.cypher is the same read with the hubs given by node offset.
// params: $hubs STRING[]   returns: hash, hub_id, text, triples
MATCH (h:kgqa_Hub) WHERE h.id IN $hubs
MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath)
RETURN p.hash, p.hub_id, p.text, p.triples;
