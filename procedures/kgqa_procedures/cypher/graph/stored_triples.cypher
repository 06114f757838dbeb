// Which of the triples in the Arrow table bound to kgqa_rows (columns sid, pred, oid) are stored.
// (LOAD FROM + one anchored pattern is an index lookup per row; see insert_triples.)
// returns: sid, pred, oid
LOAD FROM kgqa_rows
MATCH (s:Entity {id: sid})-[t:Triple]->(o:Entity)
WHERE o.id = oid AND t.predicate = pred
RETURN DISTINCT sid, pred, oid;
