// How many triples of each predicate leave and reach one entity (the counts beside a page of neighbours).
// params: $id STRING   returns: direction ('out' | 'in'), predicate, n
MATCH (s:Entity {id: $id})-[t:Triple]->(:Entity)
RETURN 'out' AS direction, t.predicate AS predicate, count(*) AS n
UNION ALL
MATCH (:Entity)-[t:Triple]->(o:Entity {id: $id})
RETURN 'in' AS direction, t.predicate AS predicate, count(*) AS n;
