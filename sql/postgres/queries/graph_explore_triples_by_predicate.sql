-- One page of the triples of one predicate, by subject and object id (explore/triples_by_predicate.cypher's twin).
-- params: predicate text, offset int, lim int
-- returns: sid, slabel, s_is_literal, predicate, oid, olabel, o_is_literal
SELECT s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal
FROM kgqa.triples t JOIN kgqa.entities s ON s.id = t.subject JOIN kgqa.entities o ON o.id = t.object
WHERE t.predicate = %(predicate)s::text
ORDER BY s.id COLLATE "C", o.id COLLATE "C"
OFFSET %(offset)s::int LIMIT %(lim)s::int;
