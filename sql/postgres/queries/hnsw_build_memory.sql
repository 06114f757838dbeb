-- maintenance_work_mem for this session's HNSW build: the given size when it is larger than the
-- server's setting. pgvector builds the graph in memory while it fits there; past it the build goes
-- on from disk, several times slower.
-- params: kib bigint
-- returns: the setting now
SELECT set_config(
    'maintenance_work_mem',
    greatest(%(kib)s::bigint, pg_size_bytes(current_setting('maintenance_work_mem')) / 1024)::text || 'kB',
    false
);
