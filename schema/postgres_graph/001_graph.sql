-- The graph in Postgres (`--graph postgres`): entities and triples of one index, in its schema
-- kgqa_<index> (the scripts write `kgqa.<table>`; kgqa/postgres/indexes.py moves them there).
-- Applied by `kgqa load --graph postgres` (kgqa/postgres/graph_store.py) and recorded in schema_version.
-- (the version and metadata tables as in schema/postgres/001_kgqa_schema.sql: the graph may come first)
CREATE TABLE IF NOT EXISTS kgqa.schema_version (
    name       text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS kgqa.meta (
    key   text PRIMARY KEY,
    value jsonb NOT NULL
);

CREATE TABLE IF NOT EXISTS kgqa.entities (
    id         text PRIMARY KEY,
    label      text NOT NULL DEFAULT '',
    types      text[] NOT NULL DEFAULT '{}',
    is_literal boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS entities_types ON kgqa.entities USING gin (types);

-- A triple whose subject or object is not an entity is refused by the foreign keys (insert the
-- entity first, in the same transaction or before).
CREATE TABLE IF NOT EXISTS kgqa.triples (
    subject      text NOT NULL REFERENCES kgqa.entities (id),
    predicate    text NOT NULL,
    object       text NOT NULL REFERENCES kgqa.entities (id),
    predicate_id text NOT NULL DEFAULT '',
    added_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subject, predicate, object)       -- out-edges of a frontier: an index scan per id
);
CREATE INDEX IF NOT EXISTS triples_object ON kgqa.triples (object);      -- in-edges of a frontier
CREATE INDEX IF NOT EXISTS triples_predicate ON kgqa.triples (predicate, subject);

-- Entities a write touched since the worker last refreshed the index: filled by the statement-level
-- triggers below in the writer's own transaction; `kgqa serve` takes them (FOR UPDATE SKIP LOCKED),
-- rebuilds the hubs whose paths reach them and deletes the rows it took. A mark is a new row each
-- time (never an upsert): a write never waits for a refresh, and a change made during a refresh keeps
-- its own row for the next one.
CREATE TABLE IF NOT EXISTS kgqa.dirty_entities (
    seq       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entity_id text NOT NULL,
    marked_at timestamptz NOT NULL DEFAULT now()
);

-- A triple added or removed changes the paths through its subject; an entity added or relabelled
-- changes the paths (and texts) through it. One INSERT ... SELECT per statement, never per row.
CREATE OR REPLACE FUNCTION kgqa.mark_triple_subjects() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO kgqa.dirty_entities (entity_id)
    SELECT DISTINCT subject FROM changed_rows;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION kgqa.mark_entities() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO kgqa.dirty_entities (entity_id)
    SELECT DISTINCT id FROM changed_rows;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS triples_inserted ON kgqa.triples;
CREATE TRIGGER triples_inserted AFTER INSERT ON kgqa.triples
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kgqa.mark_triple_subjects();
DROP TRIGGER IF EXISTS triples_deleted ON kgqa.triples;
CREATE TRIGGER triples_deleted AFTER DELETE ON kgqa.triples
    REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kgqa.mark_triple_subjects();
DROP TRIGGER IF EXISTS triples_updated ON kgqa.triples;
CREATE TRIGGER triples_updated AFTER UPDATE ON kgqa.triples
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kgqa.mark_triple_subjects();
DROP TRIGGER IF EXISTS entities_inserted ON kgqa.entities;
CREATE TRIGGER entities_inserted AFTER INSERT ON kgqa.entities
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kgqa.mark_entities();
DROP TRIGGER IF EXISTS entities_updated ON kgqa.entities;
CREATE TRIGGER entities_updated AFTER UPDATE ON kgqa.entities
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION kgqa.mark_entities();
