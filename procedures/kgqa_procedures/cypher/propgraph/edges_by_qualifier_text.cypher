// Edges of one rel table (one FROM/TO pair) whose text property, lower-cased, is written in the text.
// names: {{name:src}} {{name:rel}} {{name:dst}} {{name:prop}}   params: $text (lower case), $limit
// returns: source node, target node, edge
MATCH (a:{{name:src}})-[r:{{name:rel}}]->(b:{{name:dst}})
WHERE size(r.{{name:prop}}) >= 3 AND contains($text, lower(r.{{name:prop}}))
RETURN a, b, r LIMIT $limit;
