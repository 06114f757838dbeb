// Every HubVector of the given hubs (thesis Alg. 9 without the filter loop: hubs are small).
// Row order does not matter: ties between a path's vectors are broken by text (retrieval/hits.py).
// params: $hubs STRING[]   returns: hub, path_hash, level, text, text_hash
UNWIND $hubs AS hid
MATCH (h:Hub {id: hid})-[:HasPath]->(p:HubPath)-[e:Embeds]->(t:EmbeddedText)
RETURN h.id, p.hash, e.level, t.text, t.hash;
