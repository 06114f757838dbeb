-- The stored hubs with the signature (digest of their path-hash set) they were built from.
-- returns: id, signature
SELECT id, signature FROM kgqa.hubs;
