// Drop the HNSW index over the predicate texts.
CALL DROP_VECTOR_INDEX('PredicateText', 'predicate_text_vec');
