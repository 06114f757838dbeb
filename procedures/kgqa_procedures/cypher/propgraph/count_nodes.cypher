// Number of nodes in one node table.
// names: {{name:table}}   returns: n
MATCH (n:{{name:table}}) RETURN count(*);
