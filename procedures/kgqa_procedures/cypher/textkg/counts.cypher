// Passages and assertions of text-built graphs.
// returns: passages, asserts
MATCH (p:kgqa_Passage) WITH count(p) AS passages
OPTIONAL MATCH (:kgqa_Passage)-[a:kgqa_Asserts]->(:Entity)
RETURN passages, count(a);
