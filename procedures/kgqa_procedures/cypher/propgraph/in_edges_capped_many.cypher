// As propgraph/in_edges_capped, into many target keys: unwound and joined (Kùzu 0.11.3 checks `IN $keys`
// against the whole list for every row). names: {{name:src}} {{name:rel}} {{name:dst}} {{name:dst_key}}
// params: $keys, $limit   returns: source node, target key
UNWIND $keys AS k MATCH (a:{{name:src}})-[:{{name:rel}}]->(b:{{name:dst}}) WHERE b.{{name:dst_key}} = k RETURN a, b.{{name:dst_key}} LIMIT $limit;
