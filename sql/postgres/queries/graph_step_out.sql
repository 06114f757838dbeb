-- One forward hop over `predicate` from the whole frontier.
-- params: ids text[], predicate text, cap int   returns: from id, to id, to label, to is_literal, to types
SELECT t.subject, b.id, b.label, b.is_literal, b.types
FROM kgqa.triples t JOIN kgqa.entities b ON b.id = t.object
WHERE t.subject = ANY(%(ids)s::text[]) AND t.predicate = %(predicate)s::text
LIMIT %(cap)s::int;
