-- Size of the graph in Postgres.
-- returns: entities, literals, triples, predicates
SELECT (SELECT count(*) FROM kgqa.entities), (SELECT count(*) FROM kgqa.entities WHERE is_literal),
       (SELECT count(*) FROM kgqa.triples), (SELECT count(DISTINCT predicate) FROM kgqa.triples);
