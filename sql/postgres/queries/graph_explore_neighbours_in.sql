-- One page of an entity's incoming triples (`predicate` '' = every predicate), ordered as
-- explore/neighbours_in.cypher (byte order, as Kùzu compares strings).
-- params: id text, predicate text, offset int, lim int   returns: predicate, id, label, types, is_literal
SELECT t.predicate, s.id, s.label, s.types, s.is_literal
FROM kgqa.triples t JOIN kgqa.entities s ON s.id = t.subject
WHERE t.object = %(id)s::text AND (%(predicate)s::text = '' OR t.predicate = %(predicate)s::text)
ORDER BY t.predicate COLLATE "C", s.label COLLATE "C", s.id COLLATE "C"
OFFSET %(offset)s::int LIMIT %(lim)s::int;
