-- One level of a breadth-first search: the triples touching any entity of the frontier, both
-- directions, at most `lim` rows per direction (explore/frontier_edges.cypher's twin).
-- params: ids text[], lim int   returns: sid, predicate, oid
SELECT * FROM (
    SELECT subject, predicate, object FROM kgqa.triples WHERE subject = ANY(%(ids)s::text[]) LIMIT %(lim)s::int
) AS outgoing
UNION ALL
SELECT * FROM (
    SELECT subject, predicate, object FROM kgqa.triples WHERE object = ANY(%(ids)s::text[]) LIMIT %(lim)s::int
) AS incoming;
