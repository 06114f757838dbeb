-- Number of triples and of distinct predicates (graph/count_triples.cypher's twin).
-- returns: triples, predicates
SELECT count(*), count(DISTINCT predicate) FROM kgqa.triples;
