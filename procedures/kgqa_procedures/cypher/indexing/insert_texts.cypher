// Add embedded texts from an Arrow table bound to the name kgqa_rows (columns hash, text, embedding
// as FixedSizeList<float32>[{{dim}}], raw = the same as float32 bytes); the caller passes only hashes not stored yet (indexing/existing_texts).
// Kùzu cannot SET a property that a vector index covers, so texts are created, never merged.
// tokens: {{dim}}
LOAD FROM kgqa_rows
CREATE (:kgqa_EmbeddedText {hash: hash, text: text, embedding: CAST(embedding, 'FLOAT[{{dim}}]'), raw: raw});
