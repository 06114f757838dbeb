// Nodes of one table whose label (at least $min_len long) occurs in a lower-cased text, longest first
// (the topic candidates of a relation chain).
// names: {{name:table}} {{name:label}}   params: $text, $min_len, $limit   returns: the node
MATCH (n:{{name:table}})
WHERE size(CAST(n.{{name:label}} AS STRING)) >= $min_len AND contains($text, lower(CAST(n.{{name:label}} AS STRING)))
RETURN n ORDER BY size(CAST(n.{{name:label}} AS STRING)) DESC LIMIT $limit;
