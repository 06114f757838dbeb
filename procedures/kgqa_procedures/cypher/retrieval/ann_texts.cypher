// Global ANN search (thesis Alg. 8) over the embedded texts with Kùzu's HNSW index (cosine distance).
// The node offset lets a read-only store find the text's hubs in memory (text_hub_index.py).
// params: $query FLOAT[], $k INT64, $efs INT64   returns: hash, text, distance, node offset
CALL QUERY_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec', $query, $k, efs := $efs)
RETURN node.hash, node.text, distance, offset(id(node));
