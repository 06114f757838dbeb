-- Entities of the graph in Postgres by id (unknown ids are left out).
-- params: ids text[]   returns: id, label, types, is_literal
SELECT e.id, e.label, e.types, e.is_literal FROM kgqa.entities e WHERE e.id = ANY(%(ids)s::text[]);
