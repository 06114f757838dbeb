// Edges of one rel table (one FROM/TO pair) out of the given source keys, with the edge itself (its properties).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}}   params: $keys   returns: source key, target node, edge
MATCH (a:{{name:src}})-[r:{{name:rel}}]->(b:{{name:dst}}) WHERE a.{{name:src_key}} IN $keys RETURN a.{{name:src_key}}, b, r;
