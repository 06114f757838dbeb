-- Whether the graph in Postgres holds a triple.
-- returns: exists
SELECT EXISTS (SELECT 1 FROM kgqa.triples);
