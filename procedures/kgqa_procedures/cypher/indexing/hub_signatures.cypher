// The stored hubs with the signature (digest of their path-hash set) they were built from.
// returns: id, signature
MATCH (h:Hub) RETURN h.id, h.signature;
