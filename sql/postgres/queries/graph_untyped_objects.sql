-- The schema's rows of untyped, non-literal objects, split by whether the object is itself the subject
-- of some triple (a thing) or not (a value: a person, a tag, a year of a graph that types nothing).
-- returns: predicate, subject types, object is a subject, n
SELECT t.predicate, s.types, EXISTS (SELECT 1 FROM kgqa.triples x WHERE x.subject = o.id) AS subject, count(*) AS n
FROM kgqa.triples t JOIN kgqa.entities s ON s.id = t.subject JOIN kgqa.entities o ON o.id = t.object
WHERE cardinality(o.types) = 0 AND NOT o.is_literal
GROUP BY t.predicate, s.types, 3;
