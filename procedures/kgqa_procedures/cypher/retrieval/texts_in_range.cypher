// The stored texts whose node offsets lie in [$lo, $hi), with their embeddings' BLOB copies (a
// read-only store's hub vector table reads every text in windows, kgqa/vectorstores/hub_vector_table.py).
// params: $lo INT64, $hi INT64   returns: text offset, text, raw
MATCH (t:kgqa_EmbeddedText) WHERE offset(id(t)) >= $lo AND offset(id(t)) < $hi
RETURN offset(id(t)), t.text, t.raw;
