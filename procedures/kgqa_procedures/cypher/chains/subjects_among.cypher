// Which of the given entities are the subject of some triple. (An IN filter: see graph/in_edges.)
// params: $ids STRING[]   returns: id
MATCH (e:Entity)-[:Triple]->(:Entity)
WHERE e.id IN $ids
RETURN DISTINCT e.id;
