-- Whether the index has a build queue table (an index from before shared builds has none).
-- returns: exists
SELECT to_regclass('kgqa.build_queue') IS NOT NULL;
