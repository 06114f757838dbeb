// Every primary key of one node table, as text (the id-collision check of a first build).
// names: {{name:table}} {{name:key}}   returns: key
MATCH (n:{{name:table}}) RETURN CAST(n.{{name:key}} AS STRING);
