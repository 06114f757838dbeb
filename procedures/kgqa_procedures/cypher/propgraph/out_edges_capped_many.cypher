// As propgraph/out_edges_capped, from many source keys: unwound and joined (Kùzu 0.11.3 checks `IN $keys`
// against the whole list for every row). names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}}
// params: $keys, $limit   returns: source key, target node
UNWIND $keys AS k MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}}) WHERE a.{{name:src_key}} = k RETURN a.{{name:src_key}}, b LIMIT $limit;
