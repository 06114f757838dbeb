// Create hub nodes from an Arrow table bound to kgqa_rows
// (columns id, label, depth, path_count, signature).
LOAD FROM kgqa_rows
CREATE (:kgqa_Hub {id: id, label: label, depth: depth, path_count: path_count,
              signature: signature, built_at: current_timestamp()});
