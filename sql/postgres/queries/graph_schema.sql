-- Which predicate joins which subject and object types (relation chains), one aggregate.
-- returns: predicate, subject types, object types, object is literal, n
SELECT t.predicate, s.types, o.types, o.is_literal, count(*) AS n
FROM kgqa.triples t JOIN kgqa.entities s ON s.id = t.subject JOIN kgqa.entities o ON o.id = t.object
GROUP BY t.predicate, s.types, o.types, o.is_literal;
