-- Names of the applied schema and SQL scripts.
-- returns: name
SELECT name FROM kgqa.schema_version;
