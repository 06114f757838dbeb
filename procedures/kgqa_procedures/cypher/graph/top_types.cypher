// The most frequent entity types.
// params: $limit INT64   returns: type, n
MATCH (e:Entity) UNWIND e.types AS ty RETURN ty, count(*) AS n ORDER BY n DESC, ty LIMIT $limit;
