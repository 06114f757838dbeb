-- One backward hop over `predicate` from the whole frontier (the frontier as objects).
-- params: ids text[], predicate text, cap int   returns: from id, to id, to label, to is_literal, to types
SELECT t.object, b.id, b.label, b.is_literal, b.types
FROM kgqa.triples t JOIN kgqa.entities b ON b.id = t.subject
WHERE t.object = ANY(%(ids)s::text[]) AND t.predicate = %(predicate)s::text
LIMIT %(cap)s::int;
