// One hub path by hash (paths_by_hash.cypher for one hash, through the primary-key index).
// params: $hash STRING   returns: hash, hub_id, text, triples
MATCH (p:kgqa_HubPath {hash: $hash}) RETURN p.hash, p.hub_id, p.text, p.triples;
