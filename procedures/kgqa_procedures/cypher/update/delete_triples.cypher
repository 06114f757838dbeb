// Delete triples given by subject id, predicate and object id (entities stay).
// params: $rows LIST<STRUCT(s STRING, p STRING, o STRING)>
UNWIND $rows AS row
MATCH (s:Entity {id: row.s})-[t:Triple]->(o:Entity {id: row.o})
WHERE t.predicate = row.p
DELETE t;
