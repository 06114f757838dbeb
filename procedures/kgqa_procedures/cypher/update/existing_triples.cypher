// Which of the given triples (subject id, predicate, object id) are in the graph.
// params: $rows LIST<STRUCT(s STRING, p STRING, o STRING)>   returns: s, p, o
UNWIND $rows AS row
MATCH (s:Entity {id: row.s})-[t:Triple]->(o:Entity {id: row.o})
WHERE t.predicate = row.p
RETURN DISTINCT row.s, row.p, row.o;
