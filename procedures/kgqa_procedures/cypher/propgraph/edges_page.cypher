// The first $n edges of one rel table (one FROM/TO pair), by source key then target key (a predicate's triples).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}} {{name:dst_key}}   params: $n   returns: source node, target node
MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}})
RETURN a, b ORDER BY a.{{name:src_key}}, b.{{name:dst_key}} LIMIT $n;
