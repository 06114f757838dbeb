-- Several indexes in one database: each index's tables live in its own schema `kgqa_<name>` (the
-- scripts above write `kgqa.<table>`, kgqa/postgres/indexes.py moves those objects into the index's
-- schema); the shared `kgqa` schema keeps the registry and the answers log, keyed by index name.
CREATE TABLE IF NOT EXISTS kgqa.indexes (
    name       text PRIMARY KEY,                  -- the index name (schema kgqa_<name>)
    db_path    text,                              -- the Kùzu database it was built or synced from
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE kgqa.answers ADD COLUMN IF NOT EXISTS index_name text;
CREATE INDEX IF NOT EXISTS answers_index_name ON kgqa.answers (index_name, id);
