// Drop the HNSW index over the entity label texts.
CALL DROP_VECTOR_INDEX('LabelText', 'label_text_vec');
