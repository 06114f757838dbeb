// The first $n edges of one rel table (one FROM/TO pair), by target key then source key (a rel table read
// backwards into a hub type: the hub is the subject of the triples).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}} {{name:dst_key}}   params: $n   returns: source node, target node
MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}})
RETURN a, b ORDER BY b.{{name:dst_key}}, a.{{name:src_key}} LIMIT $n;
