// Provenance of knowledge graphs built from text (`kgqa build-kg`, KG-RAG storage stage).
// A Passage is one sentence of a source file (path, sentence number, character offsets, text).
// Asserts: the passage states the triple (the edge's target entity, predicate, object_id); hypernode
// facts and their qualifiers are asserted the same way.
CREATE NODE TABLE IF NOT EXISTS kgqa_Passage(id STRING PRIMARY KEY, source STRING, sentence INT64, start_offset INT64, end_offset INT64, text STRING, extractor STRING);
CREATE REL TABLE IF NOT EXISTS kgqa_Asserts(FROM kgqa_Passage TO Entity, predicate STRING, object_id STRING);
