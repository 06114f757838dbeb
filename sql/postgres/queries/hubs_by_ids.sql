-- Indexed hubs by id.
-- params: ids text[]   returns: id, label
SELECT id, label FROM kgqa.hubs WHERE id = ANY(%(ids)s::text[]);
