// Number of nodes of one table with a value for one property (its literal facts).
// names: {{name:table}} {{name:prop}}   returns: n
MATCH (n:{{name:table}}) WHERE n.{{name:prop}} IS NOT NULL RETURN count(*);
