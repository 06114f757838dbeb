// In-degree per target node over one rel table pair (a rel table read backwards into a hub type).
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:dst_key}}   returns: target key, edges
MATCH (:{{name:src}})-[r:{{name:rel}}]->(b:{{name:dst}}) RETURN b.{{name:dst_key}}, count(r);
