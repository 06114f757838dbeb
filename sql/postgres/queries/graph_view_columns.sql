-- The columns of a user's own graph views (or tables) `entities` and `triples` in schema `schema`,
-- checked against the view contract (docs/postgres-graph.md#your-own-tables).
-- params: schema text   returns: table, column, type (udt name)
SELECT c.table_name, c.column_name, c.udt_name
FROM information_schema.columns c
WHERE c.table_schema = %(schema)s::text AND c.table_name IN ('entities', 'triples');
