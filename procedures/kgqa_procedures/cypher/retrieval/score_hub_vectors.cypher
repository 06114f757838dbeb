// Exact per-hub search (thesis Alg. 9): every HubVector of the given hubs with its cosine similarity
// to each query vector, computed inside Kùzu.
// params: $hubs STRING[], $queries LIST<FLOAT[]>   tokens: {{dim}}
// returns: hub, path_hash, level, text, similarities
UNWIND $hubs AS hid
MATCH (h:Hub {id: hid})-[:HasPath]->(p:HubPath)-[e:Embeds]->(t:EmbeddedText)
RETURN h.id, p.hash, e.level, t.text,
       list_transform($queries, q -> array_cosine_similarity(t.embedding, CAST(q, 'FLOAT[{{dim}}]')));
