// HNSW index (cosine) over the entity label texts; created once after the first bulk load.
CALL CREATE_VECTOR_INDEX('kgqa_LabelText', 'label_text_vec', 'embedding', metric := 'cosine', mu := 16, ml := 32, efc := 64);
