// Number of edges of one rel table (one FROM/TO pair).
// names: {{name:src}} {{name:rel}} {{name:dst}}   returns: n
MATCH (:{{name:src}})-[r:{{name:rel}}]->(:{{name:dst}}) RETURN count(r);
