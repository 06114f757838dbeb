// Every embedded text's node offset and hash (a primed read-only store's ANN search returns offsets
// alone, kgqa/vectorstores/text_hub_index.py; offsets are stable while no process can write).
// params: none   returns: text offset, hash
MATCH (t:kgqa_EmbeddedText)
RETURN offset(id(t)), t.hash;
