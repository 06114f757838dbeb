// Whether one entity, found by its primary key, is the subject of some triple (chains/subjects_among
// filters a list, which Kùzu 0.11.3 evaluates against every entity: GraphStore.by_key chooses).
// params: $id STRING   returns: id (no row: not a subject)
MATCH (e:Entity {id: $id})
WHERE EXISTS { MATCH (e)-[:Triple]->(:Entity) }
RETURN e.id;
