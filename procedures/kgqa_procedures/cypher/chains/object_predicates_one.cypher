// The distinct predicates one entity, found by its primary key, is the object of (chains/object_predicates
// filters a list, which Kùzu 0.11.3 evaluates against every entity: GraphStore.by_key chooses).
// params: $id STRING   returns: id, predicate
MATCH (:Entity)-[t:Triple]->(o:Entity {id: $id})
RETURN DISTINCT o.id, t.predicate;
