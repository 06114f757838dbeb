// HNSW index (cosine) over the triple texts; created once after the first bulk load.
CALL CREATE_VECTOR_INDEX('kgqa_TripleText', 'triple_text_vec', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 64);
