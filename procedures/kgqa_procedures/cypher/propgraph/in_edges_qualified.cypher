// Edges of one rel table (one FROM/TO pair) into the given target keys, with the edge itself (its properties).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:dst_key}}   params: $keys   returns: source node, target key, edge
MATCH (a:{{name:src}})-[r:{{name:rel}}]->(b:{{name:dst}}) WHERE b.{{name:dst_key}} IN $keys RETURN a, b.{{name:dst_key}}, r;
