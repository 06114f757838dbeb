// Nodes of one of the user's node tables by primary key (a property graph read in place).
// names: {{name:table}} {{name:key}} (catalog-checked)   params: $keys   returns: the node
MATCH (n:{{name:table}}) WHERE n.{{name:key}} IN $keys RETURN n;
