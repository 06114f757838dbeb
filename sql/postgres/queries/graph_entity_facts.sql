-- Entities with their types, literal flag and out-degree (the dirty-hub walk).
-- params: ids text[]   returns: id, label, types, is_literal, out_degree
SELECT e.id, e.label, e.types, e.is_literal, (SELECT count(*) FROM kgqa.triples t WHERE t.subject = e.id)
FROM kgqa.entities e WHERE e.id = ANY(%(ids)s::text[]);
