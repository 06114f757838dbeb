-- Whether the shared registry of named indexes exists.
-- returns: exists
SELECT to_regclass('kgqa.indexes') IS NOT NULL;
