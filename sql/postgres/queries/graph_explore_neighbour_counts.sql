-- How many triples of each predicate leave and reach one entity (explore/neighbour_counts.cypher's twin).
-- params: id text   returns: direction ('out' | 'in'), predicate, n
SELECT 'out', predicate, count(*) FROM kgqa.triples WHERE subject = %(id)s::text GROUP BY predicate
UNION ALL
SELECT 'in', predicate, count(*) FROM kgqa.triples WHERE object = %(id)s::text GROUP BY predicate;
