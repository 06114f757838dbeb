// Out-degree per source node over one rel table pair.
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:src_key}}   returns: source key, edges
MATCH (a:{{name:src}})-[r:{{name:rel}}]->(:{{name:dst}}) RETURN a.{{name:src_key}}, count(r);
