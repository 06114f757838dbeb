// Number of entities and of literals.
// returns: entities, literals
MATCH (e:Entity) WITH count(*) AS n
OPTIONAL MATCH (l:Entity) WHERE l.is_literal
RETURN n, count(l);
