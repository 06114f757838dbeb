// Hubs whose paths a graph change touched (`kgqa load`, `kgqa triples add|delete`), written in the
// same transaction as the change; `kgqa index update --dirty` rebuilds them and then deletes the marks.
CREATE NODE TABLE IF NOT EXISTS kgqa_DirtyHub(id STRING PRIMARY KEY, marked_at TIMESTAMP);
