// Nodes of one table whose label property contains $label (case-insensitive), exact ones first.
// names: {{name:table}} {{name:label}}   params: $label, $limit   returns: node, exact
MATCH (n:{{name:table}})
WHERE contains(lower(CAST(n.{{name:label}} AS STRING)), lower($label))
RETURN n, lower(CAST(n.{{name:label}} AS STRING)) = lower($label) AS exact
ORDER BY exact DESC, size(CAST(n.{{name:label}} AS STRING)) LIMIT $limit;
