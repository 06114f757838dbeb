// hub_vectors.cypher with the hubs given by node offset (a primed read-only store knows them): Kùzu
// 0.11.3 tests `h.id IN $list` by searching the list for each of the Hub table's rows, which costs
// about 50 ms at 10^6 triples (49,632 hubs, 90 ids); integers cost about 12 ms.
// params: $offsets INT64[]   returns: hub, path_hash, level, text, text offset, raw
MATCH (h:kgqa_Hub) WHERE offset(id(h)) IN $offsets
MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText)
RETURN h.id, p.hash, e.level, t.text, offset(id(t)), t.raw;
