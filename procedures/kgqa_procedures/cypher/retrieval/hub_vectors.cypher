// Every HubVector of the given hubs (thesis Alg. 9 without the filter loop: hubs are small), with
// the embedding as float32 bytes (the BLOB copy; fast to read in bulk).
// `WHERE h.id IN $hubs` filters the small Hub table and expands from there; an UNWIND of the ids
// followed by MATCH (h:kgqa_Hub {id: hid}) makes Kùzu scan the paths and texts (10x slower at 10^5 triples).
// Row order does not matter: ties between a path's vectors are broken by text (retrieval/hublink/hits.py).
// A text is keyed by its node offset, not its hash: reading the hash costs about 1 µs a row, and the
// offset identifies the text within this read (and across reads while no process can write).
// hub_vectors_at.cypher is the same read with the hubs given by node offset.
// params: $hubs STRING[]   returns: hub, path_hash, level, text, text offset, raw
MATCH (h:kgqa_Hub) WHERE h.id IN $hubs
MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath)-[e:kgqa_Embeds]->(t:kgqa_EmbeddedText)
RETURN h.id, p.hash, e.level, t.text, offset(id(t)), t.raw;
