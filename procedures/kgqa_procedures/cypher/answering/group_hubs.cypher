// The hubs $ids counted per value of one key attribute (directly, or through `via`), in one aggregate:
// groupings and the most / least frequent value.
// params: $ids LIST(STRING), $via STRING, $pred STRING
// returns: key label, n (distinct hubs), hubs (a list of [id, label])
UNWIND $ids AS pid
MATCH (p:Entity {id: pid})-[k1:Triple]->(m:Entity)
WHERE ($via = '' AND k1.predicate = $pred) OR ($via <> '' AND k1.predicate = $via)
OPTIONAL MATCH (m)-[k2:Triple]->(v:Entity)
WHERE $via <> '' AND k2.predicate = $pred
WITH p, CASE WHEN $via = '' THEN m.label ELSE v.label END AS key
WHERE key IS NOT NULL
RETURN key, count(DISTINCT p) AS n, collect(DISTINCT [p.id, p.label]) AS hubs
ORDER BY n DESC, key;
