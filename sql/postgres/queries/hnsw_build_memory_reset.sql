-- The server's maintenance_work_mem again, after an HNSW build (hnsw_build_memory.sql).
RESET maintenance_work_mem;
