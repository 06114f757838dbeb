// The subjects of the triples pointing at the given entities (one step backward), with the facts
// that decide whether each is a hub root.
// params: $ids STRING[]   returns: id, types, is_literal, out_degree
UNWIND $ids AS oid
MATCH (s:Entity)-[:Triple]->(:Entity {id: oid})
WITH DISTINCT s
OPTIONAL MATCH (s)-[t:Triple]->(:Entity)
RETURN s.id, s.types, s.is_literal, count(t);
