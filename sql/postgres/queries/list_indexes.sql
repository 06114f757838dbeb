-- The named indexes of this database, with the Kùzu database each was built from.
-- returns: name, db_path, created_at, updated_at
SELECT name, db_path, created_at, updated_at FROM kgqa.indexes ORDER BY name;
