// Drop the HNSW index over the triple texts.
CALL DROP_VECTOR_INDEX('kgqa_TripleText', 'triple_text_vec');
