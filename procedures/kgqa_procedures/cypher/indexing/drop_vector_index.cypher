// Drop the HNSW index over the embedded texts.
CALL DROP_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec');
