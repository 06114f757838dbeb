// The first $n nodes of one table with a value for one property, by key (a literal predicate's triples).
// names: {{name:table}} {{name:key}} {{name:prop}}   params: $n   returns: the node
MATCH (n:{{name:table}}) WHERE n.{{name:prop}} IS NOT NULL RETURN n ORDER BY n.{{name:key}} LIMIT $n;
