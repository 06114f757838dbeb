// Every node of one node table (hub-root candidates, the label index).
// names: {{name:table}}   returns: the node
MATCH (n:{{name:table}}) RETURN n;
