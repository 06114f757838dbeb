// Record which passage states which triple (the edge points at the triple's subject).
// params: $rows LIST<STRUCT(passage STRING, subject STRING, predicate STRING, object STRING)>
UNWIND $rows AS row
MATCH (p:kgqa_Passage {id: row.passage}), (e:Entity {id: row.subject})
MERGE (p)-[a:kgqa_Asserts {predicate: row.predicate, object_id: row.object}]->(e);
