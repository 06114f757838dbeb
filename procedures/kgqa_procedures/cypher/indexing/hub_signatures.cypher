// The stored hubs with the signature (digest of their path-hash set) they were built from.
// returns: id, signature
MATCH (h:kgqa_Hub) RETURN h.id, h.signature;
