// HNSW index (cosine) over the predicate texts; created once after the first bulk load.
CALL CREATE_VECTOR_INDEX('kgqa_PredicateText', 'predicate_text_vec', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 64);
