// Edges of one rel table (one FROM/TO pair) out of the given source keys, at most $limit (a chain step).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}}   params: $keys, $limit   returns: source key, target node
MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}}) WHERE a.{{name:src_key}} IN $keys RETURN a.{{name:src_key}}, b LIMIT $limit;
