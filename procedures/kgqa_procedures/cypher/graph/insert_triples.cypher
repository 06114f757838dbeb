// Create the triples in the Arrow table bound to kgqa_rows (columns sid, pred, pid, oid); the
// caller passes only triples not stored yet (graph/stored_triples), so loading twice adds nothing.
// The two MATCHes are chained with WITH: as one comma-separated pattern, or after an UNWIND of a
// list parameter, Kùzu scans the Entity table for every row and loading grows quadratically.
// (Not MERGE: Kùzu 0.11.3 cannot MERGE a relationship inside LOAD FROM.)
LOAD FROM kgqa_rows
MATCH (s:Entity {id: sid})
WITH s, pred, pid, oid
MATCH (o:Entity {id: oid})
CREATE (s)-[:Triple {predicate: pred, predicate_id: pid}]->(o);
