-- The installed version of the pgvector extension in this database (no row: not installed).
-- returns: extversion
SELECT extversion FROM pg_extension WHERE extname = 'vector';
