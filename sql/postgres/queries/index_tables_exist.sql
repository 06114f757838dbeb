-- Whether the index tables exist.
-- returns: exists
SELECT to_regclass('kgqa.hub_vectors') IS NOT NULL;
