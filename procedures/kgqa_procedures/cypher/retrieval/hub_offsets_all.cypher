// Every hub's node offset (a read-only store's hub_vectors_at.cypher; offsets are stable while no
// process can write).
// params: none   returns: hub id, hub offset
MATCH (h:kgqa_Hub)
RETURN h.id, offset(id(h));
