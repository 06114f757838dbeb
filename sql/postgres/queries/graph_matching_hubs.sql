-- The hubs of a type that meet every constraint, in one aggregate (answering/matching_hubs.cypher on
-- the graph in Kùzu). A constraint {k, via, pred, ids}: the hub states `pred` with one of the value
-- entities `ids`, directly (via = '') or through an entity it reaches by `via`.
-- params: hub_type text, constraints jsonb, needed int   returns: n, hubs (jsonb list of [id, label])
WITH c AS (
    SELECT (x ->> 'k')::int AS k, x ->> 'via' AS via, x ->> 'pred' AS pred, vid
    FROM jsonb_array_elements(%(constraints)s::jsonb) AS x, jsonb_array_elements_text(x -> 'ids') AS vid
), hit AS (
    SELECT c.k, CASE WHEN c.via = '' THEN t2.subject ELSE t1.subject END AS pid
    FROM c JOIN kgqa.triples t2 ON t2.object = c.vid AND t2.predicate = c.pred
    LEFT JOIN kgqa.triples t1 ON c.via <> '' AND t1.object = t2.subject AND t1.predicate = c.via
), met AS (
    SELECT p.id, p.label FROM hit JOIN kgqa.entities p ON p.id = hit.pid
    WHERE %(hub_type)s::text = ANY(p.types)
    GROUP BY p.id, p.label HAVING count(DISTINCT hit.k) = %(needed)s::int
)
SELECT count(*), coalesce(jsonb_agg(jsonb_build_array(id, label) ORDER BY id), '[]'::jsonb) FROM met;
