-- The distinct predicate labels.
-- returns: predicate
SELECT DISTINCT predicate FROM kgqa.triples ORDER BY predicate;
