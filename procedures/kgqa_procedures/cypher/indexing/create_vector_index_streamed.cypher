// The HNSW index over the embedded texts (cosine), as create_vector_index but with the vectors read
// from their pages instead of all held in Kùzu's page cache while it is built: chosen when they would
// not fit under the memory ceiling (kgqa/memory.py, KGQA_MEMORY).
// tokens: {{mu}} {{ml}} {{efc}} (graph degrees and build width: kgqa.config.AnnParams, KGQA_HNSW_*)
CALL CREATE_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec', 'embedding', metric := 'cosine',
                         mu := {{mu}}, ml := {{ml}}, efc := {{efc}}, cache_embeddings := false);
