-- The `kgqa` schema: applied schema scripts (the schema version) and key/value metadata.
-- Applied in order by kgqa/postgres/database.py and recorded in kgqa.schema_version.
CREATE SCHEMA IF NOT EXISTS kgqa;  -- shared: the registry and the answers log

CREATE TABLE IF NOT EXISTS kgqa.schema_version (
    name       text PRIMARY KEY,                  -- e.g. 'postgres/002_hub_index', 'sql/postgres/020_rank'
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- Index metadata (parameters, embedding model and dimension, counts) as in Kùzu's KgqaMeta.
CREATE TABLE IF NOT EXISTS kgqa.meta (
    key   text PRIMARY KEY,
    value jsonb NOT NULL
);
