// Edges of one rel table (one FROM/TO pair) into the given target keys, at most $limit (a chain step).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:dst_key}}   params: $keys, $limit   returns: source node, target key
MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}}) WHERE b.{{name:dst_key}} IN $keys RETURN a, b.{{name:dst_key}} LIMIT $limit;
