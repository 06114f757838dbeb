// Insert triples that do not exist yet (same subject, predicate and object): loading twice adds nothing.
// params: $rows LIST<STRUCT(s STRING, p STRING, pid STRING, o STRING)>
UNWIND $rows AS row
MATCH (s:Entity {id: row.s}), (o:Entity {id: row.o})
MERGE (s)-[t:Triple {predicate: row.p}]->(o)
ON CREATE SET t.predicate_id = row.pid;
