// Nodes of one table whose property, as text, is one of the given values (a chain step back from literals).
// names: {{name:table}} {{name:prop}}   params: $values STRING[], $limit   returns: the node
MATCH (n:{{name:table}}) WHERE CAST(n.{{name:prop}} AS STRING) IN $values RETURN n LIMIT $limit;
