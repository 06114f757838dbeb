-- Record (or touch) a named index in the shared registry.
-- params: name text, db_path text
INSERT INTO kgqa.indexes (name, db_path) VALUES (%(name)s::text, %(db_path)s::text)
ON CONFLICT (name) DO UPDATE SET db_path = coalesce(EXCLUDED.db_path, kgqa.indexes.db_path), updated_at = now();
