// Link triple texts to the triples they state, from an Arrow table bound to kgqa_rows (columns hash,
// subject, predicate, object).
LOAD FROM kgqa_rows
MATCH (t:kgqa_TripleText {hash: hash}), (e:Entity {id: subject})
CREATE (t)-[:kgqa_TripleTextOf {predicate: predicate, object_id: object}]->(e);
