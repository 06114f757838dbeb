// Add the source passages (sentences) of a text-built graph; an existing passage is kept as is.
// params: $rows LIST<STRUCT(id STRING, source STRING, sentence INT64, start_offset INT64, end_offset INT64, text STRING, extractor STRING)>
UNWIND $rows AS row
MERGE (p:kgqa_Passage {id: row.id})
ON CREATE SET p.source = row.source, p.sentence = row.sentence, p.start_offset = row.start_offset,
              p.end_offset = row.end_offset, p.text = row.text, p.extractor = row.extractor;
