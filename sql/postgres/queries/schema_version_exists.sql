-- Whether the kgqa schema-version table exists (nothing was applied before it).
-- returns: exists
SELECT to_regclass('kgqa.schema_version') IS NOT NULL;
