// Add TripleText nodes from an Arrow table bound to the name kgqa_rows (columns hash, text, embedding as
// FixedSizeList<float32>[{{dim}}], raw = the same as float32 bytes); only hashes not stored yet.
// tokens: {{dim}}
LOAD FROM kgqa_rows
CREATE (:kgqa_TripleText {hash: hash, text: text, embedding: CAST(embedding, 'FLOAT[{{dim}}]'), raw: raw});
