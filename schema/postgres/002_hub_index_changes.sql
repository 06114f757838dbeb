-- Every statement that writes the index tables counts one change, in the writing transaction, so that a
-- service holding the index in memory (kgqa/vectorstores/pg_resident.py) sees a committed write as a
-- new total and reads the index again. The count is spread over 64 rows by transaction id: concurrent
-- writers (a shared build's workers) rarely wait for each other's row. The functions run with their
-- owner's rights: a writer or an asker needs no grant on the counter. Re-applied after a rebuild drops
-- the tables (its name starts with that of 002_hub_index); the counts stay, so the total only grows.
CREATE TABLE IF NOT EXISTS kgqa.index_changes (
    stripe  smallint PRIMARY KEY,
    changes bigint NOT NULL
);

CREATE OR REPLACE FUNCTION kgqa.count_index_change() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO kgqa.index_changes AS c (stripe, changes)
    VALUES ((txid_current() % 64)::smallint, 1)
    ON CONFLICT (stripe) DO UPDATE SET changes = c.changes + 1;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION kgqa.index_change_total() RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT coalesce(sum(changes), 0)::bigint FROM kgqa.index_changes
$$;

CREATE OR REPLACE TRIGGER hubs_count_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kgqa.hubs
    FOR EACH STATEMENT EXECUTE FUNCTION kgqa.count_index_change();
CREATE OR REPLACE TRIGGER hub_paths_count_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kgqa.hub_paths
    FOR EACH STATEMENT EXECUTE FUNCTION kgqa.count_index_change();
CREATE OR REPLACE TRIGGER hub_vectors_count_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kgqa.hub_vectors
    FOR EACH STATEMENT EXECUTE FUNCTION kgqa.count_index_change();
CREATE OR REPLACE TRIGGER embedded_texts_count_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON kgqa.embedded_texts
    FOR EACH STATEMENT EXECUTE FUNCTION kgqa.count_index_change();
