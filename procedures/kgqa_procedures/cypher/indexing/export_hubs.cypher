// Hubs with their paths, for copying the index to another store.
// params: $ids STRING[]   returns: id, label, depth, signature, path_hash, path_text, triples
UNWIND $ids AS hid
MATCH (h:kgqa_Hub {id: hid})
OPTIONAL MATCH (h)-[:kgqa_HasPath]->(p:kgqa_HubPath)
RETURN h.id, h.label, h.depth, h.signature, p.hash, p.text, p.triples
ORDER BY h.id, p.hash;
