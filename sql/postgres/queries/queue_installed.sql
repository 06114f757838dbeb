-- Whether the Postgres question queue (sql/postgres/040_queue.sql, `kgqa sql install`) exists.
-- returns: exists
SELECT to_regclass('kgqa.queue') IS NOT NULL AND to_regclass('kgqa.workers') IS NOT NULL;
