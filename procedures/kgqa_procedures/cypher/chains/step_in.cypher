// One hop of a relation chain, backward: the subjects that reach a frontier through one predicate.
// params: $ids STRING[], $predicate STRING, $cap INT64   returns: from id, to id, to label, to is_literal, to types
MATCH (b:Entity)-[t:Triple]->(a:Entity)
WHERE a.id IN $ids AND t.predicate = $predicate
RETURN a.id, b.id, b.label, b.is_literal, b.types
LIMIT $cap;
