// Build the HNSW index over the embedded texts (cosine). Created once, after the first bulk load:
// Kùzu then keeps it current on insert and delete.
// tokens: {{mu}} {{ml}} {{efc}} (graph degrees and build width: kgqa.config.AnnParams, KGQA_HNSW_*)
CALL CREATE_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec', 'embedding', metric := 'cosine',
                         mu := {{mu}}, ml := {{ml}}, efc := {{efc}});
