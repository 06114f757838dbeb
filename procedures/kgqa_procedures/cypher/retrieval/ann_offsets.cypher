// ann_texts.cypher returning node offsets alone, for a primed read-only store that holds each text's
// hash by offset (kgqa/vectorstores/text_hub_index.py): at 10^6 triples the search takes about 5 ms
// and reading the 60 hits' hash and text after it about 9 ms more.
// params: $query FLOAT[], $k INT64, $efs INT64   returns: node offset, distance
CALL QUERY_VECTOR_INDEX('kgqa_EmbeddedText', 'embedded_text_vec', $query, $k, efs := $efs)
RETURN offset(id(node)), distance;
