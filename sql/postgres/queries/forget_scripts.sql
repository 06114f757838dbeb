-- Forget applied scripts whose name starts with a prefix (their objects were dropped).
-- params: prefix text
DELETE FROM kgqa.schema_version WHERE starts_with(name, %(prefix)s::text);
