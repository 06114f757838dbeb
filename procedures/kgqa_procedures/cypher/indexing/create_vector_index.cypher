// Build the HNSW index over the embedded texts (cosine). Created once, after the first bulk load:
// Kùzu then keeps it current on insert and delete.
CALL CREATE_VECTOR_INDEX('EmbeddedText', 'embedded_text_vec', 'embedding', metric := 'cosine',
                         mu := 16, ml := 32, efc := 64);
