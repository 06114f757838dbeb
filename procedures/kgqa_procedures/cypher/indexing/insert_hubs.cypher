// Create hub nodes.
// params: $rows LIST<STRUCT(id STRING, label STRING, depth INT64, path_count INT64, signature STRING)>
UNWIND $rows AS row
CREATE (:Hub {id: row.id, label: row.label, depth: row.depth, path_count: row.path_count,
              signature: row.signature, built_at: current_timestamp()});
