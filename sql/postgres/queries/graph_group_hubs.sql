-- The hubs `ids` counted per value of one key attribute (directly, or through `via`), in one aggregate
-- (answering/group_hubs.cypher on the graph in Kùzu).
-- params: ids text[], via text, pred text   returns: key label, n (distinct hubs), hubs (jsonb list of [id, label])
SELECT key, count(DISTINCT pid), jsonb_agg(DISTINCT jsonb_build_array(pid, plabel))
FROM (
    SELECT p.id AS pid, p.label AS plabel, CASE WHEN %(via)s::text = '' THEN m.label ELSE v.label END AS key
    FROM kgqa.entities p
    JOIN kgqa.triples k1 ON k1.subject = p.id
     AND k1.predicate = CASE WHEN %(via)s::text = '' THEN %(pred)s::text ELSE %(via)s::text END
    JOIN kgqa.entities m ON m.id = k1.object
    LEFT JOIN kgqa.triples k2 ON %(via)s::text <> '' AND k2.subject = m.id AND k2.predicate = %(pred)s::text
    LEFT JOIN kgqa.entities v ON v.id = k2.object
    WHERE p.id = ANY(%(ids)s::text[])
) AS x
WHERE key IS NOT NULL
GROUP BY key
ORDER BY 2 DESC, key;
