// Drop the HNSW index over the embedded texts.
CALL DROP_VECTOR_INDEX('EmbeddedText', 'embedded_text_vec');
