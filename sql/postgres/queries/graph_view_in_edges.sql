-- Triples whose object is one of `ids`, in a user's own views (no `added_at`).
-- params: ids text[]   returns: sid, slabel, s_is_literal, predicate, oid, olabel, o_is_literal
SELECT s.id, s.label, s.is_literal, t.predicate, o.id, o.label, o.is_literal
FROM kgqa.triples t JOIN kgqa.entities s ON s.id = t.subject JOIN kgqa.entities o ON o.id = t.object
WHERE t.object = ANY(%(ids)s::text[])
ORDER BY t.object, t.subject, t.predicate;
