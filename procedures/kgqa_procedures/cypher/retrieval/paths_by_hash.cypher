// Hub paths by hash.
// params: $hashes STRING[]   returns: hash, hub_id, text, triples
UNWIND $hashes AS ph MATCH (p:kgqa_HubPath {hash: ph}) RETURN p.hash, p.hub_id, p.text, p.triples;
