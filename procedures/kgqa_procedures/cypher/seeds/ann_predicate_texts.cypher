// ANN search (Kùzu's HNSW index, cosine distance) over the PredicateText nodes of the label index.
// params: $query FLOAT[], $k INT64, $efs INT64   returns: hash, text, distance
CALL QUERY_VECTOR_INDEX('kgqa_PredicateText', 'predicate_text_vec', $query, $k, efs := $efs)
RETURN node.hash, node.text, distance;
