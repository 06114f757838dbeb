// Drop the HNSW index over the predicate texts.
CALL DROP_VECTOR_INDEX('kgqa_PredicateText', 'predicate_text_vec');
