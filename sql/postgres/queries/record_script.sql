-- Record that a schema or SQL script was applied (re-applying updates the time).
-- params: name text
INSERT INTO kgqa.schema_version (name) VALUES (%(name)s::text)
ON CONFLICT (name) DO UPDATE SET applied_at = now();
