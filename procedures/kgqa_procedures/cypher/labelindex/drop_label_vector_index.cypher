// Drop the HNSW index over the entity label texts.
CALL DROP_VECTOR_INDEX('kgqa_LabelText', 'label_text_vec');
