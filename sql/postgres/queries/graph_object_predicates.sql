-- The distinct predicates each of the given entities is the object of (an untyped value's kinds).
-- params: ids text[]   returns: id, predicate
SELECT DISTINCT t.object, t.predicate FROM kgqa.triples t WHERE t.object = ANY(%(ids)s::text[]);
