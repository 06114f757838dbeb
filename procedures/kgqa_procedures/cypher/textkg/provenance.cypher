// The passages that state the triple ($subject, $predicate, $object).
// params: $subject STRING, $predicate STRING, $object STRING   returns: source, sentence, start, end, text, extractor
MATCH (p:kgqa_Passage)-[a:kgqa_Asserts]->(e:Entity {id: $subject})
WHERE a.predicate = $predicate AND a.object_id = $object
RETURN p.source, p.sentence, p.start_offset, p.end_offset, p.text, p.extractor
ORDER BY p.source, p.sentence;
