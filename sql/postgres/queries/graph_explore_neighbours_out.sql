-- One page of an entity's outgoing triples (`predicate` '' = every predicate), ordered as
-- explore/neighbours_out.cypher (byte order, as Kùzu compares strings).
-- params: id text, predicate text, offset int, lim int   returns: predicate, id, label, types, is_literal
SELECT t.predicate, o.id, o.label, o.types, o.is_literal
FROM kgqa.triples t JOIN kgqa.entities o ON o.id = t.object
WHERE t.subject = %(id)s::text AND (%(predicate)s::text = '' OR t.predicate = %(predicate)s::text)
ORDER BY t.predicate COLLATE "C", o.label COLLATE "C", o.id COLLATE "C"
OFFSET %(offset)s::int LIMIT %(lim)s::int;
