-- The HNSW search list size for this session (pgvector's hnsw.ef_search, at most 1000).
-- params: efs text
SELECT set_config('hnsw.ef_search', %(efs)s::text, false);
