// Add embedded texts from an Arrow table bound to the name kgqa_rows (columns hash, text, embedding
// as FixedSizeList<float32>[{{dim}}], raw = the same as float32 bytes); the caller passes only hashes not stored yet (indexing/existing_texts).
// Kùzu cannot SET a property that a vector index covers, so texts are created, never merged.
// The FLOAT[{{dim}}] column is most of the cost (~225 us a text in Kùzu 0.11.3). Not COPY, though ~13x
// faster: a COPY that fails inside a transaction (a duplicate key) leaves the table so that
// CREATE_VECTOR_INDEX hangs in that process and crashes in the next; outside one too (docs/scale.md).
// tokens: {{dim}}
LOAD FROM kgqa_rows
CREATE (:kgqa_EmbeddedText {hash: hash, text: text, embedding: CAST(embedding, 'FLOAT[{{dim}}]'), raw: raw});
