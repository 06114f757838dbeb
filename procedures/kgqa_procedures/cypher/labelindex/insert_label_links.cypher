// Link label texts to the entities that carry them, from an Arrow table bound to kgqa_rows
// (columns hash, entity).
LOAD FROM kgqa_rows
MATCH (t:kgqa_LabelText {hash: hash}), (e:Entity {id: entity})
CREATE (t)-[:kgqa_LabelOf]->(e);
