-- Whether this index holds a graph in Postgres.
-- returns: exists
SELECT to_regclass('kgqa.triples') IS NOT NULL AND to_regclass('kgqa.entities') IS NOT NULL;
