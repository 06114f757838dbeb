-- Forget a named index in the shared registry.
-- params: name text
DELETE FROM kgqa.indexes WHERE name = %(name)s::text;
