// hub_paths.cypher with the hubs given by node offset (a primed read-only store knows them; see
// hub_vectors_at.cypher for why).
// params: $offsets INT64[]   returns: hash, hub_id, text, triples
MATCH (h:kgqa_Hub) WHERE offset(id(h)) IN $offsets
MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath)
RETURN p.hash, p.hub_id, p.text, p.triples;
