-- The most frequent predicates.
-- params: lim int   returns: predicate, n
SELECT predicate, count(*) AS n FROM kgqa.triples GROUP BY predicate ORDER BY n DESC, predicate COLLATE "C" LIMIT %(lim)s::int;
